import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { CreatePropertyBody, PropertyParams, UpdatePropertyBody } from './model.ts';
import { createPartnerProperty, updatePropertyMapping } from './service.ts';
import { propertyView } from './view.ts';

export function registerPropertyWrites(app: QcApp, deps: Deps) {
  app.post(
    routes.propertiesCreate.path,
    async ({ principal, body, set }) => {
      const row = await deps.db.tx((tx) =>
        createPartnerProperty(tx, principal, {
          name: body.name,
          nameTr: body.name_tr,
          typeId: body.type_id,
          currency: body.currency,
          timezone: body.timezone,
          partnerCode: body.partner_code,
        }),
      );
      set.status = 201;
      return ok(propertyView(row));
    },
    {
      qc: routes.propertiesCreate,
      body: CreatePropertyBody,
      detail: {
        summary: routes.propertiesCreate.summary,
        tags: ['properties'],
        description: [
          'Answers 201 with the property as GET /properties lists it; `mode` is always `shadow` (the operator flips',
          'it to `live` on request). Only a partner that owns properties may create them: others get 403',
          "`errors.qc.property_creation_not_allowed`. `partner_code` already used among the customer's properties:",
          '409 `errors.qc.partner_code_taken`. `type_id` must be an id of GET /property-types and `timezone` an IANA',
          'zone (422 otherwise). The creating credential can act on the new property immediately: a fixed-list',
          'credential gets the id appended to its allow-list; other fixed-list credentials need rotation.',
        ].join(' '),
      },
    },
  );
  app.patch(
    routes.propertiesUpdate.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const row = await deps.db.tx((tx) =>
        updatePropertyMapping(tx, property, { partnerCode: body.partner_code, partnerName: body.partner_name }),
      );
      return ok(propertyView(row));
    },
    {
      qc: routes.propertiesUpdate,
      params: PropertyParams,
      body: UpdatePropertyBody,
      detail: {
        summary: routes.propertiesUpdate.summary,
        tags: ['properties'],
        description:
          'Only the fields present change; `null` clears one. A `partner_code` used by another property of the customer: 409 `errors.qc.partner_code_taken`.',
      },
    },
  );
}
