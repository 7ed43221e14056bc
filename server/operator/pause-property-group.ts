import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { setGroupPaused } from '../property-groups/groups.ts';
import { IdParams } from './operator-params.ts';

export const pausePropertyGroupOp = defineOperatorRoute({
  name: 'ops.property_groups.pause',
  surface: 'ops',
  method: 'PUT',
  path: '/property-groups/:id/paused',
  summary: 'Pause or resume a property group (a paused group drops out of account-scoped allow-lists)',
  params: IdParams,
  body: t.Object({ paused: t.Boolean() }),
  async handle({ deps, params, body }) {
    const row = await setGroupPaused(deps.db, params.id, body.paused);
    if (!row) throw notFound();
    return ok(row);
  },
});
