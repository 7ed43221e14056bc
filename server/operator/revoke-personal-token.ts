import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import type { CustomerOf } from './dashboard-session.ts';
import { revokePersonalToken } from './personal-tokens.ts';

/** DELETE /api-tokens/{id}: revokes one of the customer's personal tokens at once; repeating it is a no-op. */
export function revokePersonalTokenRoute(deps: Deps, customerOf: CustomerOf) {
  return (app: JsonApp) =>
    app.delete(
      '/api-tokens/:id',
      async ({ params, request }) => {
        const token = await revokePersonalToken(deps.db, customerOf(request), params.id, deps.clock.now());
        if (!token) throw notFound();
        return ok(token);
      },
      {
        params: t.Object({ id: t.String() }),
        detail: {
          summary: 'Revoke a personal API token',
          description:
            "The token stops authenticating on its next request. Answers the token with `revoked_at`; revoking again keeps the first time. Another customer's token is 404.",
          tags: ['dashboard'],
        },
      },
    );
}
