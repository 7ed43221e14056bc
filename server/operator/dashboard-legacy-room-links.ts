import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import { resolveProperty } from '../core/resolve.ts';
import type { CustomerOf } from './dashboard-session.ts';
import { RoomLinksBody, roomLinksOf, setRoomLinks } from './legacy-room-links.ts';

const Params = t.Object({ property: t.String() });
const DESCRIPTION =
  "Each PMS room type id the legacy postExternalPropertyData declared (`mapping_data.rooms_types`) with the room of the property it stands for; legacy updateAvailability and getAvailability accept an `ext_room_id` once it is linked. PUT `{links: [{ext_room_id, room_type_id}]}` links each id for every PMS of the property that declared it (`room_type_id` external id or partner code, null unlinks) and answers the links; an undeclared id or another property's room type is 422, nothing written. The property is an external id or partner code of the customer (404 otherwise).";

/** GET and PUT /properties/{ext}/legacy-room-links: the hotelier links the PMS's room ids to its rooms. */
export function legacyRoomLinksRoutes(deps: Deps, customerOf: CustomerOf) {
  const propertyOf = (request: Request, segment: string) =>
    resolveProperty(deps.db, { customerId: customerOf(request) }, segment);
  return (app: JsonApp) =>
    app
      .get(
        '/properties/:property/legacy-room-links',
        async ({ params, request }) => ok(await roomLinksOf(deps.db, await propertyOf(request, params.property))),
        { params: Params, detail: { summary: 'Legacy PMS room links', description: DESCRIPTION, tags: ['dashboard'] } },
      )
      .put(
        '/properties/:property/legacy-room-links',
        async ({ params, body, request }) =>
          ok(await setRoomLinks(deps.db, await propertyOf(request, params.property), body)),
        {
          params: Params,
          body: RoomLinksBody,
          detail: { summary: 'Link legacy PMS room ids to rooms', description: DESCRIPTION, tags: ['dashboard'] },
        },
      );
}
