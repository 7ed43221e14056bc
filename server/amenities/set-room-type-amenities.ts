import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { pathRoomType } from '../room-types/path-room-type.ts';
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
  pathRecord: pathRoomType,
  handle: inProperty(async ({ deps, body, request }, property, room) => {
    const target = { kind: 'room_type', property, roomTypeId: room.id, roomTypeExternalId: room.external_id } as const;
    await deps.db.tx((tx) => replaceAmenities(tx, target, body.amenities));
    return ok(await assignedAmenities(deps.db, target, amenityLocale(request.headers.get('accept-language'))));
  }),
});
