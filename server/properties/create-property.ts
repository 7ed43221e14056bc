import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CreatePropertyBody, PropertySchema } from './model.ts';
import { createPartnerProperty } from './service.ts';
import { propertyView } from './view.ts';

export const createProperty = defineRoute({
  name: 'qc.properties.create',
  method: 'POST',
  path: '/properties',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'property',
  summary: 'Create a property (mode shadow)',
  tags: ['properties'],
  description: [
    'Answers 201 with the property as GET /properties lists it; `mode` is always `shadow` (the operator flips',
    'it to `live` on request). Only a partner that owns properties may create them: others get 403',
    "`errors.qc.property_creation_not_allowed`. `partner_code` already used among the customer's properties:",
    '409 `errors.qc.partner_code_taken`. `type_id` must be an id of GET /property-types, `currency` a circulating',
    'ISO 4217 code (`EUR`; not a fund, metal or test code) and `timezone` an IANA zone name as the tz database spells',
    'it (`Europe/Lisbon`, `UTC`, links such as `Asia/Calcutta`; not `europe/lisbon`, not an offset such as',
    '`+02:00`): 422 rule `in` otherwise. The creating credential can act on the new property immediately: a fixed-list',
    'credential gets the id appended to its allow-list; other fixed-list credentials need rotation.',
  ].join(' '),
  body: CreatePropertyBody,
  status: 201,
  response: okSchema(PropertySchema),
  errors: ['errors.qc.property_creation_not_allowed', 'errors.qc.partner_code_taken'],
  async handle({ deps, principal, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const row = await createPartnerProperty(tx, principal, {
        name: body.name,
        nameTr: body.name_tr,
        typeId: body.type_id,
        currency: body.currency,
        timezone: body.timezone,
        partnerCode: body.partner_code,
      });
      const answer = ok(propertyView(row));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  },
});
