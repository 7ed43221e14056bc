import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveRoomType } from '../core/resolve.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ROOM_TYPE_SEGMENT, RoomTypeParams, RoomTypeSchema } from './model.ts';
import type { RoomTypeRecord } from './service.ts';
import { roomTypeView } from './view.ts';

export const showRoomType = defineRoute({
  name: 'qc.room_types.show',
  method: 'GET',
  path: '/properties/:property/room_types/:roomType',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: 'room_type',
  summary: 'One room type',
  tags: ['room types'],
  description: ROOM_TYPE_SEGMENT,
  params: RoomTypeParams,
  response: okSchema(RoomTypeSchema),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, params }, property) => {
    const room = await resolveRoomType<RoomTypeRecord>(deps.db, property.id, params.roomType);
    return ok(roomTypeView(room));
  }),
});
