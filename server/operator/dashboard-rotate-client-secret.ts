import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { CLIENT_SECRET_OVERLAP_HOURS, rotateClientSecret } from '../oauth/client-secret.ts';

/** POST /clients/{client_id}/rotate-secret: a new secret for one of the customer's OAuth clients. */
export const dashboardRotateClientSecretOp = defineOperatorRoute({
  name: 'dashboard.clients.rotate_secret',
  surface: 'dashboard',
  method: 'POST',
  path: '/clients/:clientId/rotate-secret',
  summary: 'Rotate an OAuth client secret (shown once)',
  description: [
    'Answers `{client_id, client_secret, secret_rotated_at, previous_secret_expires_at}`; the new secret is',
    `shown this once. The old secret still gets tokens for ${CLIENT_SECRET_OVERLAP_HOURS} hours (until`,
    '`previous_secret_expires_at`), so deployments can move over without downtime; access tokens already',
    'issued live out their hour. Rotating again inside the overlap ends the older secret at once. An unknown',
    "or revoked client, or another customer's, is 404. The same Idempotency-Key again answers the first answer with",
    '`client_secret` null, `secret_withheld: ["data.client_secret"]` and a `detail` saying how to get a new one.',
  ].join(' '),
  params: t.Object({ clientId: t.String() }),
  shownOnce: { fields: ['client_secret'], renewal: 'rotate again, with another Idempotency-Key' },
  async handle({ deps, params, customerId }) {
    const rotated = await rotateClientSecret(deps.db, deps.clock.now(), { clientId: params.clientId, customerId });
    if (!rotated) throw notFound();
    return ok(rotated);
  },
});
