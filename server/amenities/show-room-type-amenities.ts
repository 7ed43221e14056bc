import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { pathRoomType } from '../room-types/path-room-type.ts';
import { assignedAmenities } from './assignments.ts';
import { amenityLocale } from './locale.ts';
import { AssignedSchema } from './model.ts';

export const showRoomTypeAmenities = defineRoute({
  name: 'qc.amenities.room_type_show',
  method: 'GET',
  path: '/properties/:property/room_types/:roomType/amenities',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'amenity',
  summary: 'Amenities assigned to a room type (RMA), names in the request locale',
  tags: ['amenities'],
  params: t.Object({ property: t.String(), roomType: t.String() }),
  response: okSchema(AssignedSchema),
  pathRecord: pathRoomType,
  handle: inProperty(async ({ deps, request }, property, room) => {
    const locale = amenityLocale(request.headers.get('accept-language'));
    const target = { kind: 'room_type', property, roomTypeId: room.id, roomTypeExternalId: room.external_id } as const;
    return ok(await assignedAmenities(deps.db, target, locale));
  }),
});
