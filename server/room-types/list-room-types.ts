import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { ROOM_TYPE_SEGMENT, RoomTypeSchema } from './model.ts';
import { listRoomTypes as readPage } from './service.ts';
import { roomTypeView } from './view.ts';

export const listRoomTypes = defineRoute({
  name: 'qc.room_types.list',
  method: 'GET',
  path: '/properties/:property/room_types',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: 'room_type',
  summary: 'Room types of a property',
  tags: ['room types'],
  description: `Paged like every list. ${ROOM_TYPE_SEGMENT}`,
  params: PropertyParams,
  query: ListQuery,
  response: okSchema(t.Object({ room_types: t.Array(RoomTypeSchema), meta: MetaSchema })),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, query }, property) => {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await readPage(deps.db, property.id, page, perPage);
    return ok({ room_types: rows.map(roomTypeView), meta: pageMeta(total, page, perPage) });
  }),
});
