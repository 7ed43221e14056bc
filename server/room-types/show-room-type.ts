import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ROOM_TYPE_SEGMENT, RoomTypeParams, RoomTypeSchema } from './model.ts';
import { pathRoomType } from './path-room-type.ts';
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
  pathRecord: pathRoomType,
  handle: (_input, room) => ok(roomTypeView(room)),
});
