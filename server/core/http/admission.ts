import { authenticate } from '../auth/authenticate.ts';
import { grants } from '../auth/scopes.ts';
import type { Deps } from '../deps.ts';
import { applyRateLimit, refusedLately } from '../limits/rate-limit.ts';
import { endpointAllowed } from '../routes/endpoint-scopes.ts';
import type { RouteSpec } from '../routes/route.ts';
import { endpointNotAllowed, insufficientScope } from './api-error.ts';
import type { PeerSource } from './client-address.ts';
import { requestAddress } from './request-address.ts';
import { requestState } from './request-state.ts';

/**
 * Authentication, the route's scope and endpoint checks and its rate-limit budget, once per request (the
 * pipeline's parse hook runs it before the body is read, transform after, for routes without a body or a token).
 *
 * A read (GET, HEAD) of an admitted caller does not wait for its budget: its handler runs while the budget is
 * taken, and its answer waits for the budget (`budgetTaken`): over budget, it is a 429 with its headers and what
 * the handler found is dropped. A read writes nothing, so nothing is left to undo (issue 27: the round trip to
 * Redis before the data query cost a read ~15 us of CPU). Writes, refused callers and callers this process saw
 * over budget in the running window still wait for the budget before any work.
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

/**
 * Settles when the request's budget is taken; rejects with the 429 when it was refused. Before the answer of
 * every request the pipeline admitted (the handler's, or the error hook's).
 */
export function budgetTaken(request: Request): Promise<void> | undefined {
  return requestState(request).budget;
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
  const budget = applyRateLimit(deps, spec, request, { principal: state.principal, body, address });
  const principal = state.principal;
  if (
    rejected === undefined &&
    principal &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !refusedLately(deps, spec, principal)
  ) {
    state.budget = budget;
    // Awaited before the answer; this only keeps a request that ends another way from an unhandled rejection.
    budget.catch(() => {});
    return;
  }
  await budget;
  if (rejected) throw rejected;
}
