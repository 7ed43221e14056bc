import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findSubscription, type SubscriptionRow } from './service.ts';

/**
 * The subscription of a route under /subscriptions/:subscription, declared as the route's `pathRecord`: the
 * pipeline resolves it for the caller before it reads the body, so one the caller may not see (another customer's,
 * one outside its allow-list), or an unknown id, is a 404 whatever the body (README, Webhooks).
 */
export const pathSubscription: PathRecordResolver<SubscriptionRow> = (deps, principal, params) =>
  findSubscription(deps.db, principal, params.subscription ?? '');

/**
 * The same check for a write, which finds a deleted subscription too: the write reads it again in its transaction
 * and answers 404 for one that is gone, after the Idempotency-Key claim, so a keyed retry of a DELETE that went
 * through replays its first answer (README, Rate limits and idempotency) rather than a 404.
 */
export const pathSubscriptionToWrite: PathRecordResolver<SubscriptionRow> = (deps, principal, params) =>
  findSubscription(deps.db, principal, params.subscription ?? '', true);
