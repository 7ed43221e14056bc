import { type AnyElysia, Elysia } from 'elysia';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { clientAddress } from '../http/client-address.ts';
import { renderError } from '../http/render-error.ts';
import { requestState } from '../http/request-state.ts';
import type { Budget } from './budgets.ts';

/**
 * Requests that name no operation, the API document and docs page and paths no route serves, spend one budget
 * per address, bucket `public` (README, "Rate limits and idempotency"): unknown paths had no budget at all (one
 * client without a token could send as fast as the server answers), and the document answered without the
 * X-Qc-Request-Id and X-RateLimit-* headers every other answer under /v1/qc carries.
 */
export const PUBLIC_BUDGET: Budget = { perMinute: 60, perDay: 5000 };
export const PUBLIC_BUCKET = 'public';

export async function spendPublicBudget(deps: Deps, request: Request, address: string | undefined): Promise<void> {
  const state = requestState(request);
  state.address = address;
  const verdict = await deps.limiter.take(
    `public:addr:${address ?? 'unknown'}`,
    PUBLIC_BUCKET,
    PUBLIC_BUDGET,
    deps.clock.now(),
  );
  Object.assign(state.headers, verdict.headers);
  if (!verdict.allowed)
    throw new ApiError('errors.qc.rate_limit_exceeded', {}, { 'retry-after': verdict.retryAfter as string });
}

/** The document routes (`documents`, an Elysia plugin) behind the public budget, with the headers of every answer. */
export function publicDocuments<Plugin extends AnyElysia>(deps: Deps, documents: Plugin) {
  return new Elysia({ name: 'qc-public-documents' })
    .onBeforeHandle(async ({ request, server, set }) => {
      try {
        await spendPublicBudget(deps, request, clientAddress(request, server, deps.config.trustedProxies));
      } catch (refused) {
        return renderError(deps, request, 'UNKNOWN', refused);
      }
      Object.assign(set.headers, requestState(request).headers);
    })
    .use(documents);
}
