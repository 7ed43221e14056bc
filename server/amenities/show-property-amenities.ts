import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { assignedAmenities } from './assignments.ts';
import { amenityLocale } from './locale.ts';
import { AssignedSchema } from './model.ts';

export const showPropertyAmenities = defineRoute({
  name: 'qc.amenities.property_show',
  method: 'GET',
  path: '/properties/:property/amenities',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'amenity',
  summary: 'Amenities assigned to the property (HAC), names in the request locale',
  tags: ['amenities'],
  params: PropertyParams,
  response: okSchema(AssignedSchema),
  handle: inProperty(async ({ deps, request }, property) => {
    const locale = amenityLocale(request.headers.get('accept-language'));
    return ok(await assignedAmenities(deps.db, { kind: 'property', property }, locale));
  }),
});
