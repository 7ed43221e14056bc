import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import { propertyRowOf } from '../properties/insert-property.ts';
import { RoomLinksBody, roomLinksOf, setRoomLinks } from './legacy-room-links.ts';

const Params = t.Object({ id: t.String() });

/**
 * GET and PUT /ops/properties/{id}/legacy-room-links: the operator reads and sets, on the hotelier's
 * request, which room of the property each PMS room type id (legacy `ext_room_id`) stands for.
 */
export function legacyRoomLinksOps(deps: Deps) {
  return (app: JsonApp) =>
    app
      .get(
        '/properties/:id/legacy-room-links',
        async ({ params }) => ok(await roomLinksOf(deps.db, await propertyRowOf(deps, params.id))),
        {
          params: Params,
          detail: { summary: 'PMS room type ids of the property and the rooms they are linked to' },
        },
      )
      .put(
        '/properties/:id/legacy-room-links',
        async ({ params, body }) => ok(await setRoomLinks(deps.db, await propertyRowOf(deps, params.id), body)),
        {
          params: Params,
          body: RoomLinksBody,
          detail: { summary: 'Link PMS room type ids (legacy ext_room_id) to rooms of the property' },
        },
      );
}
