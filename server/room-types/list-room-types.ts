import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { ROOM_TYPE_SEGMENT, RoomTypeSchema } from './model.ts';
import { listRoomTypes as readPage } from './service.ts';
import { roomTypeView } from './view.ts';

const PER_PAGE = 200;

export const listRoomTypes = defineRoute({
  name: 'qc.room_types.list',
  method: 'GET',
  path: '/properties/:property/room_types',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: 'room_type',
  summary: 'Room types of a property',
  tags: ['room types'],
  description: `Paged (per_page up to 200). ${ROOM_TYPE_SEGMENT}`,
  params: PropertyParams,
  query: ListQuery,
  response: okSchema(t.Object({ room_types: t.Array(RoomTypeSchema), meta: MetaSchema })),
  errors: ['errors.not_found'],
  async handle({ deps, principal, params, query }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const perPage = query.per_page ?? PER_PAGE;
    const page = query.page ?? 1;
    const { rows, total } = await readPage(deps.db, property.id, page, perPage);
    return ok({ room_types: rows.map(roomTypeView), meta: pageMeta(total, page, perPage) });
  },
});
