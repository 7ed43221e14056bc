import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { revokePersonalToken } from './personal-tokens.ts';

/** DELETE /api-tokens/{id}: revokes one of the customer's personal tokens at once; repeating it is a no-op. */
export const revokePersonalTokenOp = defineOperatorRoute({
  name: 'dashboard.api_tokens.revoke',
  surface: 'dashboard',
  method: 'DELETE',
  path: '/api-tokens/:id',
  summary: 'Revoke a personal API token',
  description:
    "The token stops authenticating on its next request. Answers the token with `revoked_at`; revoking again keeps the first time. Another customer's token is 404.",
  params: t.Object({ id: t.String() }),
  async handle({ deps, params, customerId }) {
    const token = await revokePersonalToken(deps.db, customerId, params.id, deps.clock.now());
    if (!token) throw notFound();
    return ok(token);
  },
});
