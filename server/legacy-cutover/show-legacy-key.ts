import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { pathInteger } from '../core/http/named-integer.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { legacyKeyView } from './cutover-setting.ts';

/** GET /ops/legacy-keys/{id}: the key's property, PMS, cutover mode and upstream (never the key itself). */
export const showLegacyKey = defineOperatorRoute({
  name: 'ops.legacy_keys.show',
  surface: 'ops',
  method: 'GET',
  path: '/legacy-keys/:id',
  summary: 'Read a legacy api key and its cutover setting',
  params: t.Object({ id: pathInteger('id', 1, Number.MAX_SAFE_INTEGER, "The legacy key's id") }),
  async handle({ deps, params }) {
    return ok(await legacyKeyView(deps, params.id));
  },
});
