import { Elysia } from 'elysia';
import { authenticate } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { grants } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import { endpointAllowed } from '../routes/endpoint-scopes.ts';
import type { RouteSpec } from '../routes/route.ts';
import { endpointNotAllowed, insufficientScope } from './api-error.ts';
import { renderError } from './render-error.ts';
import { requestState } from './request-state.ts';

/**
 * The modern API's request pipeline. Every route declares `{ qc: routes.<key> }`; the macro then, before
 * body validation (so a missing token is a 401, not a 422):
 *   1. authenticates the bearer (401 errors.unauthorized),
 *   2. checks the route's scope (403 errors.qc.insufficient_scope),
 *   3. checks the token's endpoint allow-list (403 errors.qc.endpoint_not_allowed).
 * The property allow-list is the third check; it is applied by the property resolver (404 when outside).
 */
export function qcPipeline(deps: Deps) {
  return new Elysia({ name: 'qc-pipeline' })
    .onRequest(({ request }) => {
      requestState(request);
    })
    .macro({
      qc: (spec: RouteSpec) => ({
        async transform({ request }) {
          const state = requestState(request);
          state.routeName = spec.name;
          if (spec.auth === 'none') return;
          const principal = await authenticate(deps, request.headers.get('authorization'));
          state.principal = principal;
          if (spec.scope && !grants(principal.scopes, spec.scope)) throw insufficientScope();
          if (!endpointAllowed(principal.endpointScopes, spec.name)) throw endpointNotAllowed();
        },
        resolve: ({ request }) => ({ principal: requestState(request).principal as Principal }),
        error: ({ request, code, error }) => renderError(deps, request, code, error, spec.resource),
      }),
    })
    .onAfterHandle({ as: 'scoped' }, ({ request, set }) => {
      Object.assign(set.headers, requestState(request).headers);
    })
    .onAfterResponse({ as: 'scoped' }, ({ request, set }) => {
      const state = requestState(request);
      deps.log.info('request', {
        request_id: state.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: set.status,
        route: state.routeName,
        client_id: state.principal?.clientId,
        ms: Math.round((performance.now() - state.startedAt) * 10) / 10,
      });
    });
}
