import { basicCredentials, canBeCredential } from '../auth/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { requestState } from '../http/request-state.ts';
import type { RouteSpec } from '../routes/route.ts';
import { budgetFor } from './budgets.ts';

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
 * any work is done.
 */
export async function applyRateLimit(deps: Deps, spec: RouteSpec, request: Request, caller: Caller): Promise<void> {
  const subject = await subjectOf(deps, spec, request, caller);
  // Each inventory endpoint has its own inventory-writes budget (spec 8.1).
  const counted = spec.bucket === 'inventory-writes' ? `${spec.bucket}:${spec.name}` : spec.bucket;
  const budget = budgetFor(caller.principal?.tier ?? 'standard', spec.bucket);
  const verdict = await deps.limiter.take(`${counted}:${subject}`, spec.bucket, budget, deps.clock.now());
  const { 'retry-after': retryAfter, ...headers } = verdict.headers;
  Object.assign(requestState(request).headers, headers);
  if (!verdict.allowed)
    throw new ApiError('errors.qc.rate_limit_exceeded', {}, { 'retry-after': retryAfter as string });
}

async function subjectOf(deps: Deps, spec: RouteSpec, request: Request, caller: Caller): Promise<string> {
  const principal = caller.principal;
  // Personal tokens spend their owner's budget: minting more tokens does not buy more calls.
  if (principal)
    return principal.kind === 'personal' ? `owner:${principal.customerId}` : `client:${principal.clientPk}`;
  const address = `addr:${caller.address ?? 'unknown'}`;
  if (spec.bucket !== 'token') return address;
  const clientId = formClientId(caller.body) ?? basicCredentials(request.headers.get('authorization'))?.id;
  if (!clientId) return address;
  // Unknown ids are counted per address, so inventing ids does not buy fresh budgets.
  const [known] = await deps.db.sql`select 1 from api_clients where client_id = ${clientId} and kind = 'oauth' limit 1`;
  return known ? `oauth:${clientId}` : address;
}

function formClientId(body: unknown): string | undefined {
  const id = (body as { client_id?: unknown } | undefined)?.client_id;
  return typeof id === 'string' && id && canBeCredential(id) ? id : undefined;
}
