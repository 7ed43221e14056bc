import { bearerToken } from '../core/auth/credentials.ts';
import { DASHBOARD_AUDIENCE, verifyJwt } from '../core/auth/jwt.ts';
import type { Deps } from '../core/deps.ts';
import { unauthorized } from '../core/http/api-error.ts';
import { createJsonApp } from '../core/http/json-app.ts';
import { legacyRoomLinksRoutes } from './dashboard-legacy-room-links.ts';
import { rotateClientSecretRoute } from './dashboard-rotate-client-secret.ts';
import { listPersonalTokensRoute } from './list-personal-tokens.ts';
import { mintPersonalToken } from './mint-personal-token.ts';
import { revokePersonalTokenRoute } from './revoke-personal-token.ts';

/**
 * The dashboard's routes: personal API tokens (mint, list, revoke, spec 4.1), OAuth client secret rotation
 * and the legacy PMS room links. The dashboard authenticates with its own session JWT (audience qc-dashboard, claim
 * customer_id; the operator API mints those); every operation acts for that customer only.
 */
export function dashboardRoutes(deps: Deps) {
  const sessions = new WeakMap<Request, number>();
  const customerOf = (request: Request) => sessions.get(request) as number;
  return (
    createJsonApp(deps, '/api/v1/pem-systems/qc', 'qc-dashboard')
      // Authenticate before body validation, so a missing session is a 401 whatever the body.
      .onTransform(async ({ request }) => {
        const bearer = bearerToken(request.headers.get('authorization'));
        const claims = bearer ? await verifyJwt(deps.keys, deps.clock, DASHBOARD_AUDIENCE, bearer) : undefined;
        if (!claims || typeof claims.customer_id !== 'number') throw unauthorized(bearer);
        sessions.set(request, claims.customer_id);
      })
      .use(mintPersonalToken(deps, customerOf))
      .use(listPersonalTokensRoute(deps, customerOf))
      .use(revokePersonalTokenRoute(deps, customerOf))
      .use(rotateClientSecretRoute(deps, customerOf))
      .use(legacyRoomLinksRoutes(deps, customerOf))
  );
}
