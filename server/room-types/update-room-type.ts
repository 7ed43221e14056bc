import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ROOM_TYPE_SEGMENT, RoomTypeParams, RoomTypeSchema, UpdateRoomTypeBody } from './model.ts';
import { pathRoomType } from './path-room-type.ts';
import { updateRoomTypeMapping } from './service.ts';
import { roomTypeView } from './view.ts';

export const updateRoomType = defineRoute({
  name: 'qc.room_types.update',
  method: 'PATCH',
  path: '/properties/:property/room_types/:roomType',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'room_type',
  summary: 'Map a room type to partner codes',
  tags: ['room types'],
  description: `Sets \`partner_code\` and/or \`partner_name\`; \`null\` clears one; a code taken on this property is 409 \`errors.qc.partner_code_taken\`. ${ROOM_TYPE_SEGMENT}`,
  params: RoomTypeParams,
  body: UpdateRoomTypeBody,
  response: okSchema(RoomTypeSchema),
  errors: ['errors.not_found', 'errors.qc.partner_code_taken'],
  pathRecord: pathRoomType,
  handle: inProperty(async ({ deps, body }, property, room) => {
    const row = await deps.db.tx((tx) =>
      updateRoomTypeMapping(tx, property, room.id, { partnerCode: body.partner_code, partnerName: body.partner_name }),
    );
    return ok(roomTypeView(row));
  }),
});
