import type { Deps } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { requestState } from '../http/request-state.ts';
import type { Budget } from './budgets.ts';

/**
 * Paths no route serves had no budget at all: one client without a token could send as fast as the server
 * answers (and every answer stored an incident). They spend a budget per address, like the refused requests
 * of real routes; documented in the README ("Rate limits and idempotency").
 */
export const UNMATCHED_BUDGET: Budget = { perMinute: 60, perDay: 5000 };

export async function spendUnmatchedBudget(deps: Deps, request: Request, address: string | undefined): Promise<void> {
  const state = requestState(request);
  state.address = address;
  const verdict = await deps.limiter.take(
    `unmatched:addr:${address ?? 'unknown'}`,
    'unmatched',
    UNMATCHED_BUDGET,
    deps.clock.now(),
  );
  const { 'retry-after': retryAfter, ...headers } = verdict.headers;
  Object.assign(state.headers, headers);
  if (!verdict.allowed)
    throw new ApiError('errors.qc.rate_limit_exceeded', {}, { 'retry-after': retryAfter as string });
}
