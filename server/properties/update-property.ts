import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams, PropertySchema, UpdatePropertyBody } from './model.ts';
import { updatePropertyMapping } from './service.ts';
import { propertyView } from './view.ts';

export const updateProperty = defineRoute({
  name: 'qc.properties.update',
  method: 'PATCH',
  path: '/properties/:property',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'property',
  summary: 'Set partner_code / partner_name',
  tags: ['properties'],
  description:
    'Only the fields present change; `null` clears one. A `partner_code` used by another property of the customer: 409 `errors.qc.partner_code_taken`.',
  params: PropertyParams,
  body: UpdatePropertyBody,
  response: okSchema(PropertySchema),
  errors: ['errors.qc.partner_code_taken'],
  handle: inProperty(async ({ deps, body }, property) => {
    const row = await deps.db.tx((tx) =>
      updatePropertyMapping(tx, property, { partnerCode: body.partner_code, partnerName: body.partner_name }),
    );
    return ok(propertyView(row));
  }),
});
