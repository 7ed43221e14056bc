import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { RoomLinksBody, roomLinksOf, setRoomLinks } from './legacy-room-links.ts';

const Params = t.Object({ property: t.String() });
const DESCRIPTION =
  "Each PMS room type id the legacy postExternalPropertyData declared (`mapping_data.rooms_types`) with the room of the property it stands for; legacy updateAvailability and getAvailability accept an `ext_room_id` once it is linked. PUT `{links: [{ext_room_id, room_type_id}]}` links each id for every PMS of the property that declared it (`room_type_id` external id or partner code, null unlinks) and answers the links; an undeclared id or another property's room type is 422, nothing written. The property is an external id or partner code of the customer (404 otherwise).";

/** GET /properties/{ext}/legacy-room-links: the hotelier reads which room each PMS room id stands for. */
export const dashboardShowLegacyRoomLinksOp = defineOperatorRoute({
  name: 'dashboard.legacy_room_links.show',
  surface: 'dashboard',
  method: 'GET',
  path: '/properties/:property/legacy-room-links',
  summary: 'Legacy PMS room links',
  description: DESCRIPTION,
  params: Params,
  async handle({ deps, params, customerId }) {
    return ok(await roomLinksOf(deps.db, await resolveProperty(deps.db, { customerId }, params.property)));
  },
});

/** PUT /properties/{ext}/legacy-room-links: the hotelier links the PMS's room ids to its rooms. */
export const dashboardLinkLegacyRoomsOp = defineOperatorRoute({
  name: 'dashboard.legacy_room_links.update',
  surface: 'dashboard',
  method: 'PUT',
  path: '/properties/:property/legacy-room-links',
  summary: 'Link legacy PMS room ids to rooms',
  description: DESCRIPTION,
  params: Params,
  body: RoomLinksBody,
  async handle({ deps, params, body, customerId }) {
    return ok(await setRoomLinks(deps.db, await resolveProperty(deps.db, { customerId }, params.property), body));
  },
});
