import { authenticate } from '../auth/authenticate.ts';
import { grants } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import { applyRateLimit } from '../limits/rate-limit.ts';
import { endpointAllowed } from '../routes/endpoint-scopes.ts';
import type { RouteSpec } from '../routes/route.ts';
import { endpointNotAllowed, insufficientScope } from './api-error.ts';
import type { PeerSource } from './client-address.ts';
import { requestAddress } from './request-address.ts';
import { requestState } from './request-state.ts';

/**
 * Authentication, the route's scope and endpoint checks and its rate-limit budget, once per request (the
 * pipeline's parse hook runs it before the body is read, transform after, for routes without a body or a token).
 * Every request waits for its budget before any work, reads included: running a read's query beside its budget
 * script served 8-30% more reads a second but raised the p99 by 30-100% (docs/performance.md, "Reads, third pass").
 */
export function admitCaller(
  deps: Deps,
  spec: RouteSpec,
  request: Request,
  body: unknown,
  server: PeerSource,
): Promise<void> {
  const state = requestState(request);
  if (!state.admission) {
    // Read when a rule needs it (a caller without a client, an incident): not for every request.
    if (state.address === undefined) state.peer = server;
    state.admission = admit(deps, spec, request, body);
  }
  return state.admission;
}

async function admit(deps: Deps, spec: RouteSpec, request: Request, body: unknown) {
  const state = requestState(request);
  state.routeName = spec.name;
  let rejected: unknown;
  if (spec.auth !== 'none') {
    try {
      const principal = await authenticate(deps, request.headers.get('authorization'));
      state.principal = principal;
      if (spec.scope && !grants(principal.scopes, spec.scope)) throw insufficientScope(spec.scope);
      // The allow-list narrows what a scope grants; a route that needs no scope (the properties the token may
      // act on, discovery) is outside it, so a narrowed token can still find its way (README, Authorization).
      if (spec.scope && !endpointAllowed(principal.endpointScopes, spec.name)) throw endpointNotAllowed();
    } catch (err) {
      rejected = err;
    }
  }
  // Rejected requests spend budget too (per address when there is no client): guessing tokens is limited.
  const address = state.principal ? undefined : requestAddress(request, deps.config.trustedProxies);
  await applyRateLimit(deps, spec, request, { principal: state.principal, body, address });
  if (rejected) throw rejected;
}
