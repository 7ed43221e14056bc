import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { assignedAmenities, replaceAmenities } from './assignments.ts';
import { amenityLocale } from './locale.ts';
import { AssignedSchema, AssignmentsBody } from './model.ts';

export const setPropertyAmenities = defineRoute({
  name: 'qc.amenities.property_update',
  method: 'PUT',
  path: '/properties/:property/amenities',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'amenity',
  summary: "Replace the property's amenities",
  tags: ['amenities'],
  description:
    '`amenities[]` of `{id, options?}`: property-level catalogue ids (`HAC.<code>`) and, for parametric ones, option values from their lists. Anything else: 422 with the offending `amenities.<i>.id` or `amenities.<i>.options.<key>`; nothing is written.',
  params: PropertyParams,
  body: AssignmentsBody,
  response: okSchema(AssignedSchema),
  handle: inProperty(async ({ deps, body, request }, property) => {
    const target = { kind: 'property', property } as const;
    await deps.db.tx((tx) => replaceAmenities(tx, target, body.amenities));
    return ok(await assignedAmenities(deps.db, target, amenityLocale(request.headers.get('accept-language'))));
  }),
});
