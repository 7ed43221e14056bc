import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { type ResolvedOffer, resolveOffer } from './service.ts';

/**
 * The offer of every route under /special_offers/:offer, declared as the route's `pathRecord`: the pipeline
 * resolves it for the caller before it reads the body, so another customer's offer, or an unknown id, is a 404
 * whatever the body (README, Configuration surfaces). A deleted offer passes: the write locks the live one in its
 * transaction and answers 404 for one that is gone, after the Idempotency-Key claim, so a keyed retry of a DELETE
 * that went through replays its first answer rather than a 404 (README, Rate limits and idempotency).
 */
export const pathOffer: PathRecordResolver<ResolvedOffer> = (deps, principal, params) =>
  resolveOffer(deps.db, principal, params.offer ?? '');
