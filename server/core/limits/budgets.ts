import type { Bucket } from '../routes/route-spec.ts';

/**
 * Rate-limit budgets (spec 8.1), per client and bucket: a per-minute window and a per-day count. The
 * spec gives the standard tier's reads, inventory-writes, booking actions and token budgets and a higher
 * tier whose reads allow 600 a minute; the rest are ours and documented in the README
 * ("Rate limits and idempotency").
 */
export interface Budget {
  perMinute: number;
  perDay: number;
}

const STANDARD: Record<Bucket, Budget> = {
  reads: { perMinute: 300, perDay: 100_000 },
  // Counted per inventory route, so a partner pushing availability, rates and restrictions gets 20 of each.
  'inventory-writes': { perMinute: 20, perDay: 5_000 },
  'booking-actions': { perMinute: 60, perDay: 20_000 },
  // Configuration changes come in onboarding bursts (catalogue, room types, rate plans), then rarely.
  'config-writes': { perMinute: 60, perDay: 10_000 },
  token: { perMinute: 10, perDay: 500 },
};

// Premium doubles every request budget (reads 600/min as in the spec's sample header) except the token
// endpoint: a token lives an hour, so ten a minute is already generous, and the budget is checked before
// the caller is known to be a premium client.
const PREMIUM: Record<Bucket, Budget> = {
  reads: { perMinute: 600, perDay: 200_000 },
  'inventory-writes': { perMinute: 40, perDay: 10_000 },
  'booking-actions': { perMinute: 120, perDay: 40_000 },
  'config-writes': { perMinute: 120, perDay: 20_000 },
  token: STANDARD.token,
};

/** Keyed by `api_clients.tier` (the operator API's tier list lives in server/oauth/clients.ts). */
export const TIER_BUDGETS: Readonly<Record<string, Record<Bucket, Budget>>> = { standard: STANDARD, premium: PREMIUM };

/**
 * The `webhook-fanout` bucket: outbound webhook deliveries per client per UTC day (resets 00:00 UTC), the
 * same in every tier. Enforced by the webhook delivery queue, not by this module's request limiter.
 */
export const WEBHOOK_FANOUT_PER_DAY = 50_000;

export function budgetFor(tier: string, bucket: Bucket): Budget {
  return (TIER_BUDGETS[tier] ?? STANDARD)[bucket];
}
