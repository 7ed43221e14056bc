import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams, PropertySchema } from './model.ts';
import { propertyView } from './view.ts';

export const showProperty = defineRoute({
  name: 'qc.properties.show',
  method: 'GET',
  path: '/properties/:property',
  scope: null,
  bucket: 'reads',
  resource: 'property',
  summary: 'One property',
  tags: ['properties'],
  params: PropertyParams,
  response: okSchema(PropertySchema),
  handle: inProperty((_input, property) => ok(propertyView(property))),
});
