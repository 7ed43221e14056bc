import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveRoomType } from '../core/resolve.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { assignedAmenities, replaceAmenities } from './assignments.ts';
import { amenityLocale } from './locale.ts';
import { AssignedSchema, AssignmentsBody } from './model.ts';

export const setRoomTypeAmenities = defineRoute({
  name: 'qc.amenities.room_type_update',
  method: 'PUT',
  path: '/properties/:property/room_types/:roomType/amenities',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'amenity',
  summary: "Replace a room type's amenities",
  tags: ['amenities'],
  description:
    '`amenities[]` of `{id, options?}` with unit-level ids (`RMA.<code>`); 422 as for the property amenities.',
  params: t.Object({ property: t.String(), roomType: t.String() }),
  body: AssignmentsBody,
  response: okSchema(AssignedSchema),
  handle: inProperty(async ({ deps, params, body, request }, property) => {
    const room = await resolveRoomType(deps.db, property.id, params.roomType);
    const target = { kind: 'room_type', property, roomTypeId: room.id, roomTypeExternalId: room.external_id } as const;
    await deps.db.tx((tx) => replaceAmenities(tx, target, body.amenities));
    return ok(await assignedAmenities(deps.db, target, amenityLocale(request.headers.get('accept-language'))));
  }),
});
