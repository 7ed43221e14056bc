import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { RoomLinksBody, roomLinksOf, setRoomLinks } from './legacy-room-links.ts';
import { propertyIdOf } from './properties.ts';

const Params = t.Object({ id: t.String() });

async function propertyOf(deps: Deps, id: string): Promise<PropertyRow> {
  const [row] = await deps.db.sql<PropertyRow>`select * from properties where id = ${await propertyIdOf(deps, id)}`;
  if (!row) throw notFound();
  return row;
}

/**
 * GET and PUT /ops/properties/{id}/legacy-room-links: the operator reads and sets, on the hotelier's
 * request, which room of the property each PMS room type id (legacy `ext_room_id`) stands for.
 */
export function legacyRoomLinksOps(deps: Deps) {
  return (app: JsonApp) =>
    app
      .get(
        '/properties/:id/legacy-room-links',
        async ({ params }) => ok(await roomLinksOf(deps.db, await propertyOf(deps, params.id))),
        {
          params: Params,
          detail: { summary: 'PMS room type ids of the property and the rooms they are linked to' },
        },
      )
      .put(
        '/properties/:id/legacy-room-links',
        async ({ params, body }) => ok(await setRoomLinks(deps.db, await propertyOf(deps, params.id), body)),
        {
          params: Params,
          body: RoomLinksBody,
          detail: { summary: 'Link PMS room type ids (legacy ext_room_id) to rooms of the property' },
        },
      );
}
