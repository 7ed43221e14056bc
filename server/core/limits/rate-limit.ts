import { clientSecretVerdict } from '../auth/client-secrets.ts';
import { basicCredentials, canBeCredential } from '../auth/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { requestState } from '../http/request-state.ts';
import type { RouteSpec } from '../routes/route.ts';
import { type Budget, budgetFor } from './budgets.ts';

export interface Caller {
  principal?: Principal;
  /** The parsed body: the token endpoint counts per `client_id` before anyone is authenticated. */
  body?: unknown;
  /** The peer address, for callers that are not a known client. */
  address?: string;
}

/**
 * Spends one unit of the route's bucket for the caller and puts the X-RateLimit-* headers on the
 * request, so every response (errors included) carries them. Over budget: 429 with Retry-After, before
 * any work is done. A token request with a wrong secret spends two budgets (its address's and the client's
 * failure budget), never the client's own: see subjectsOf.
 */
export async function applyRateLimit(deps: Deps, spec: RouteSpec, request: Request, caller: Caller): Promise<void> {
  const counted = countedBucket(spec);
  const budget = budgetFor(caller.principal?.tier ?? 'standard', spec.bucket);
  let shown: Record<string, string | number> | undefined;
  let refused: string | undefined;
  // A known caller spends its own budget and no other: no look-up to wait for (every read comes this way).
  const subjects = caller.principal
    ? [{ key: principalSubject(caller.principal) } as Subject]
    : await subjectsOf(deps, spec, request, caller);
  for (const subject of subjects) {
    const verdict = await deps.limiter.take(
      `${counted}:${subject.key}`,
      spec.bucket,
      subject.budget ?? budget,
      deps.clock.now(),
    );
    // The headers show the first budget, or the one that refused.
    if (!shown || (!verdict.allowed && refused === undefined)) shown = verdict.headers;
    if (!verdict.allowed && refused === undefined) refused = verdict.retryAfter as string;
  }
  Object.assign(requestState(request).headers, shown);
  if (refused !== undefined) throw new ApiError('errors.qc.rate_limit_exceeded', {}, { 'retry-after': refused });
}

/** The counter a route's budget is kept in: each inventory endpoint has its own inventory-writes budget (spec 8.1). */
function countedBucket(spec: RouteSpec): string {
  return spec.bucket === 'inventory-writes' ? `${spec.bucket}:${spec.name}` : spec.bucket;
}

/** Personal tokens spend their owner's budget: minting more tokens does not buy more calls. */
function principalSubject(principal: Principal): string {
  return principal.kind === 'personal' ? `owner:${principal.customerId}` : `client:${principal.clientPk}`;
}

/**
 * Wrong secrets for one OAuth client, from anywhere, a minute and a day: far above what a client that mistypes
 * its secret sends, far below what guessing a 256-bit secret would need. Past it, wrong secrets for that client
 * are 429; its right secret is not counted here and still gets its token.
 */
export const TOKEN_FAILURES_PER_CLIENT: Budget = { perMinute: 100, perDay: 10_000 };

interface Subject {
  key: string;
  /** Another budget than the route's bucket gives the caller. */
  budget?: Budget;
}

/**
 * Whose budget a request of a caller without a client spends (an authenticated caller spends its client's, personal
 * tokens their owner's: principalSubject): its address's. The token endpoint checks the secret first (issue 25 N5: anyone
 * who knew a `client_id` could spend that client's token budget with wrong secrets and lock it out): a right
 * secret spends the client's budget, whatever the address; a wrong one spends its address's budget and the
 * client's failure budget, never the client's own, so the real secret still gets its token from anywhere.
 */
async function subjectsOf(deps: Deps, spec: RouteSpec, request: Request, caller: Caller): Promise<Subject[]> {
  const address = { key: `addr:${caller.address ?? 'unknown'}` };
  if (spec.bucket !== 'token') return [address];
  const basic = basicCredentials(request.headers.get('authorization'));
  const clientId = formField(caller.body, 'client_id') ?? basic?.id;
  // Unknown ids are counted per address, so inventing ids does not buy fresh budgets.
  if (!clientId) return [address];
  const secret = formField(caller.body, 'client_secret') ?? basic?.secret;
  const verdict = await clientSecretVerdict(deps.db, clientId, secret, deps.clock.now());
  if (verdict === 'accepted') return [{ key: `oauth:${clientId}` }];
  if (verdict === 'unknown') return [address];
  return [address, { key: `oauth-failures:${clientId}`, budget: TOKEN_FAILURES_PER_CLIENT }];
}

function formField(body: unknown, name: 'client_id' | 'client_secret'): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value && canBeCredential(value) ? value : undefined;
}
