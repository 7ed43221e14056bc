import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { propertyRowOf } from '../properties/insert-property.ts';
import { RoomLinksBody, roomLinksOf, setRoomLinks } from './legacy-room-links.ts';
import { PropertyIdParams } from './operator-params.ts';

/** PUT /ops/properties/{id}/legacy-room-links: the operator links, on the hotelier's request, PMS room type ids to rooms. */
export const linkLegacyRoomsOp = defineOperatorRoute({
  name: 'ops.legacy_room_links.update',
  surface: 'ops',
  method: 'PUT',
  path: '/properties/:id/legacy-room-links',
  summary: 'Link PMS room type ids (legacy ext_room_id) to rooms of the property',
  params: PropertyIdParams,
  body: RoomLinksBody,
  async handle({ deps, params, body }) {
    return ok(await setRoomLinks(deps.db, await propertyRowOf(deps, params.id), body));
  },
});

/** GET /ops/properties/{id}/legacy-room-links: which room of the property each PMS room type id stands for. */
export const showLegacyRoomLinksOp = defineOperatorRoute({
  name: 'ops.legacy_room_links.show',
  surface: 'ops',
  method: 'GET',
  path: '/properties/:id/legacy-room-links',
  summary: 'PMS room type ids of the property and the rooms they are linked to',
  params: PropertyIdParams,
  async handle({ deps, params }) {
    return ok(await roomLinksOf(deps.db, await propertyRowOf(deps, params.id)));
  },
});
