import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { revokeClient } from '../oauth/clients.ts';

export const revokeClientOp = defineOperatorRoute({
  name: 'ops.clients.revoke',
  surface: 'ops',
  method: 'POST',
  path: '/clients/:id/revoke',
  summary: 'Revoke an API client for good',
  params: t.Object({ id: t.String() }),
  async handle({ deps, params }) {
    const row = await revokeClient(deps.db, params.id);
    if (!row) throw notFound();
    return ok({ client_id: row.client_id, revoked: true });
  },
});
