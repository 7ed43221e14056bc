import { bearerToken } from '../core/auth/credentials.ts';
import { DASHBOARD_AUDIENCE, verifyJwt } from '../core/auth/jwt.ts';
import { safeEqual } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import { unauthorized } from '../core/http/api-error.ts';
import { createJsonApp } from '../core/http/json-app.ts';
import { mountOperatorRoutes } from '../core/http/mount-operator-routes.ts';
import { OPERATOR_PREFIX, type OperatorRouteDefinition } from '../core/routes/operator-route.ts';

/** How the log names a request the operator token admitted (there is one operator, and its token is never logged). */
const OPERATOR_CALLER = { client_id: 'operator' } as const;

/**
 * The operator API (outside the partner spec): what the service operator does on request (customers,
 * properties, credentials, the shadow/live flip, bookings of the platform's own channels, the legacy
 * cutover) and what tests and the demo use to build fixtures. Guarded by
 * `Authorization: Bearer <QC_OPERATOR_TOKEN>`, checked before the body is read.
 */
export function opsApi(deps: Deps, operatorToken: string, routes: readonly OperatorRouteDefinition[]) {
  const admitted = new WeakSet<Request>();
  const app = createJsonApp(deps, OPERATOR_PREFIX.ops, 'qc-ops').onTransform(({ request }) => {
    const bearer = bearerToken(request.headers.get('authorization')) ?? '';
    if (!safeEqual(bearer, operatorToken)) throw unauthorized(bearer);
    admitted.add(request);
  });
  return mountOperatorRoutes(
    app,
    deps,
    routes.filter((r) => r.surface === 'ops'),
    (request) => (admitted.has(request) ? OPERATOR_CALLER : undefined),
  );
}

/**
 * The dashboard's routes: personal API tokens (mint, list, revoke, spec 4.1), OAuth client secret rotation
 * and the legacy PMS room links. The dashboard authenticates with its own session JWT (audience
 * qc-dashboard, claim customer_id; the operator API mints those); every operation acts for that customer only.
 */
export function dashboardApi(deps: Deps, routes: readonly OperatorRouteDefinition[]) {
  const sessions = new WeakMap<Request, number>();
  const app = createJsonApp(deps, OPERATOR_PREFIX.dashboard, 'qc-dashboard')
    // Authenticate before body validation, so a missing session is a 401 whatever the body.
    .onTransform(async ({ request }) => {
      const bearer = bearerToken(request.headers.get('authorization'));
      const claims = bearer ? await verifyJwt(deps.keys, deps.clock, DASHBOARD_AUDIENCE, bearer) : undefined;
      if (!claims || typeof claims.customer_id !== 'number') throw unauthorized(bearer);
      sessions.set(request, claims.customer_id);
    });
  return mountOperatorRoutes(
    app,
    deps,
    routes.filter((r) => r.surface === 'dashboard'),
    (request) => {
      const customer = sessions.get(request);
      return customer === undefined ? undefined : { client_id: 'dashboard', customer_id: customer };
    },
    (request) => sessions.get(request) as number,
  );
}
