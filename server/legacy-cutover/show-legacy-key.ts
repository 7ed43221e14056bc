import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import { legacyKeyView } from './cutover-setting.ts';
import type { OpsApp } from './ops-app.ts';

/** GET /ops/legacy-keys/{id}: the key's property, PMS, cutover mode and upstream (never the key itself). */
export const showLegacyKey = (app: OpsApp, deps: Deps) =>
  app.get('/legacy-keys/:id', async ({ params }) => ok(await legacyKeyView(deps, params.id)), {
    params: t.Object({ id: t.Numeric() }),
    detail: { summary: 'Read a legacy api key and its cutover setting' },
  });
