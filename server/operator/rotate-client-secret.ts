import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { CLIENT_SECRET_OVERLAP_HOURS, rotateClientSecret } from '../oauth/client-secret.ts';

/**
 * POST /ops/clients/{client_id}/rotate-secret: the operator rotates any customer's OAuth client secret on
 * request (the dashboard route does it for the customer's own clients). 404 for an unknown, revoked or
 * personal-token client.
 */
export const rotateClientSecretOp = defineOperatorRoute({
  name: 'ops.clients.rotate_secret',
  surface: 'ops',
  method: 'POST',
  path: '/clients/:id/rotate-secret',
  summary: 'Rotate an OAuth client secret (shown once)',
  description: `The old secret still gets tokens for ${CLIENT_SECRET_OVERLAP_HOURS} hours (until previous_secret_expires_at).`,
  params: t.Object({ id: t.String() }),
  shownOnce: { fields: ['client_secret'], renewal: 'rotate again, with another Idempotency-Key' },
  async handle({ deps, params }) {
    const rotated = await rotateClientSecret(deps.db, deps.clock.now(), { clientId: params.id });
    if (!rotated) throw notFound();
    return ok(rotated);
  },
});
