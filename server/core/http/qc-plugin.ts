import { Elysia } from 'elysia';
import { authenticate } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { grants } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import {
  abandonIdempotentRequest,
  finishIdempotentRequest,
  IdempotentReplay,
  keepRawBody,
  startIdempotentRequest,
} from '../idempotency/idempotent-request.ts';
import { applyRateLimit } from '../limits/rate-limit.ts';
import { countRequest } from '../metrics.ts';
import { endpointAllowed } from '../routes/endpoint-scopes.ts';
import type { RouteSpec } from '../routes/route.ts';
import { endpointNotAllowed, insufficientScope } from './api-error.ts';
import { requireDeclaredContentType } from './content-type.ts';
import { renderError } from './render-error.ts';
import { requestState } from './request-state.ts';

/**
 * The modern API's request pipeline. Every route is mounted with `{ qc: <its definition> }`; the macro then, before
 * body validation (so a missing token is a 401, not a 422):
 *   1. authenticates the bearer (401 errors.unauthorized),
 *   2. checks the route's scope (403 errors.qc.insufficient_scope),
 *   3. checks the token's endpoint allow-list (403 errors.qc.endpoint_not_allowed),
 *   4. spends the route's rate-limit budget (429 errors.qc.rate_limit_exceeded), rejected requests
 *      included, so every response carries the X-RateLimit-* headers,
 *   5. claims the Idempotency-Key of a write (replay, 409, or run), see server/core/idempotency/.
 * The property allow-list is the third check; it is applied by the property resolver (404 when outside).
 */
export function qcPipeline(deps: Deps) {
  return new Elysia({ name: 'qc-pipeline' })
    .onRequest(({ request }) => {
      requestState(request);
      keepRawBody(request);
    })
    .macro({
      qc: (spec: RouteSpec) => ({
        async transform({ request, body, server }) {
          await admit(deps, spec, request, body, server?.requestIP(request)?.address);
        },
        resolve: ({ request }) => ({ principal: requestState(request).principal as Principal }),
        async error({ request, code, error, server, set }) {
          if (error instanceof IdempotentReplay) return replay(error, set);
          // An unparsable body fails before transform; admit the request now, so it is answered like
          // any other (401 without a token, rate-limit headers, idempotency) rather than skipping checks.
          if (code === 'PARSE') {
            try {
              await admit(deps, spec, request, undefined, server?.requestIP(request)?.address);
            } catch (rejected) {
              if (rejected instanceof IdempotentReplay) return replay(rejected, set);
              return renderError(deps, request, 'UNKNOWN', rejected, spec.resource);
            }
          }
          return renderError(deps, request, code, error, spec.resource);
        },
      }),
    })
    .onAfterHandle({ as: 'scoped' }, ({ request, set }) => {
      Object.assign(set.headers, requestState(request).headers);
    })
    .mapResponse({ as: 'scoped' }, ({ request, responseValue, set }) => {
      // Sees success values and error responses alike: the one place a keyed write's answer is stored.
      return finishIdempotentRequest(deps, request, responseValue, set);
    })
    .onAfterResponse({ as: 'scoped' }, async ({ request, set }) => {
      const state = requestState(request);
      countRequest(state.routeName, request.method, set.status, state.startedAt);
      deps.log.info('request', {
        request_id: state.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: set.status,
        route: state.routeName,
        client_id: state.principal?.clientId,
        ms: Math.round((performance.now() - state.startedAt) * 10) / 10,
      });
      await abandonIdempotentRequest(deps, request);
    });
}

/**
 * A replay leaves through the route's error hook, where Elysia answers a returned Response of status 200
 * with the error's status (500) unless `set.status` says otherwise: a replayed 200 came back as a 500.
 */
function replay(stored: IdempotentReplay, set: { status?: number | string }): Response {
  set.status = stored.response.status;
  return stored.response;
}

async function admit(deps: Deps, spec: RouteSpec, request: Request, body: unknown, address: string | undefined) {
  const state = requestState(request);
  state.routeName = spec.name;
  let rejected: unknown;
  if (spec.auth !== 'none') {
    try {
      const principal = await authenticate(deps, request.headers.get('authorization'));
      state.principal = principal;
      if (spec.scope && !grants(principal.scopes, spec.scope)) throw insufficientScope(spec.scope);
      if (!endpointAllowed(principal.endpointScopes, spec.name)) throw endpointNotAllowed();
    } catch (err) {
      rejected = err;
    }
  }
  // Rejected requests spend budget too (per address when there is no client): guessing tokens is limited.
  await applyRateLimit(deps, spec, request, { principal: state.principal, body, address });
  if (rejected) throw rejected;
  requireDeclaredContentType(spec, request, body);
  if (state.principal) await startIdempotentRequest(deps, spec, request, state.principal);
}
