import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import { CLIENT_SECRET_OVERLAP_HOURS, rotateClientSecret } from '../oauth/client-secret.ts';
import type { CustomerOf } from './dashboard-session.ts';

/** POST /clients/{client_id}/rotate-secret: a new secret for one of the customer's OAuth clients. */
export function rotateClientSecretRoute(deps: Deps, customerOf: CustomerOf) {
  return (app: JsonApp) =>
    app.post(
      '/clients/:clientId/rotate-secret',
      async ({ params, request }) => {
        const rotated = await rotateClientSecret(deps.db, deps.clock.now(), {
          clientId: params.clientId,
          customerId: customerOf(request),
        });
        if (!rotated) throw notFound();
        return ok(rotated);
      },
      {
        params: t.Object({ clientId: t.String() }),
        detail: {
          summary: 'Rotate an OAuth client secret (shown once)',
          description: [
            'Answers `{client_id, client_secret, secret_rotated_at, previous_secret_expires_at}`; the new secret is',
            `shown this once. The old secret still gets tokens for ${CLIENT_SECRET_OVERLAP_HOURS} hours (until`,
            '`previous_secret_expires_at`), so deployments can move over without downtime; access tokens already',
            'issued live out their hour. Rotating again inside the overlap ends the older secret at once. An unknown',
            "or revoked client, or another customer's, is 404.",
          ].join(' '),
          tags: ['dashboard'],
        },
      },
    );
}
