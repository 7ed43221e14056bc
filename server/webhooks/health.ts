import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { iso } from '../core/iso.ts';
import { visibleSubscriptionIds } from '../subscriptions/service.ts';
import { deliveryView, listDeliveries, parseStatus } from './delivery-log.ts';
import { withheldFrom } from './withheld.ts';

/** The success rate covers the attempts of this window. */
export const HEALTH_WINDOW_MS = 24 * 3600_000;
/** GET /health/webhooks shows this many of the newest deliveries (GET /deliveries pages through all). */
export const HEALTH_LOG_SIZE = 50;

/** GET /health/webhooks: every visible subscription's health and the newest deliveries (`status` filters them). */
export async function webhookHealth(deps: Deps, principal: Principal, status: string | undefined) {
  const filter = { status: parseStatus(status) };
  const subscriptions = await subscriptionHealth(deps, principal);
  const log = await listDeliveries(deps, principal, filter, 1, HEALTH_LOG_SIZE);
  return { subscriptions, deliveries: log.rows.map(deliveryView) };
}

interface HealthRow {
  external_id: string;
  url: string;
  status: 'active' | 'disabled';
  failing_since: Date | null;
  disabled_at: Date | null;
  last_success_at: Date | null;
  attempts: number;
  successes: number;
  last_attempt_at: Date | null;
  last_attempt_success: boolean | null;
  last_response_status: number | null;
  last_error: string | null;
  next_retry_at: Date | null;
  outstanding: number;
  event_types: string[];
  creator_scopes: string[];
  creator_revoked: boolean;
}

/**
 * Per subscription: success rate over the attempts of the last 24 hours (null without attempts), the
 * last attempt and its outcome, when the next retry is due, and how many deliveries are still outstanding.
 *
 * The next retry is the earliest failed delivery's next attempt, never before now: a delivery past its time is
 * due and waits for a worker, or for the pause of an unreachable receiver (fair-scheduler.ts), which lives in the
 * memory of each delivery process and is not in the table; its time on the ladder would have shown minutes in the
 * past while nothing was sent. None for a disabled subscription: its deliveries are parked until it is enabled.
 * `withheld` names the subscription's events the relay does not send and why (withheld.ts): no delivery is made
 * for them, so the log cannot say it.
 */
export async function subscriptionHealth(deps: Deps, principal: Principal) {
  const ids = await visibleSubscriptionIds(deps.db, principal);
  const now = deps.clock.now();
  const since = new Date(now.getTime() - HEALTH_WINDOW_MS);
  const rows = await deps.db.sql<HealthRow>`
    select s.external_id, s.url, s.status, s.failing_since, s.disabled_at, s.last_success_at,
      w.attempts, w.successes, l.started_at as last_attempt_at, l.success as last_attempt_success,
      l.response_status as last_response_status, l.error as last_error,
      -- greatest() skips a null: without a failed delivery there is no retry, not one now.
      case when s.status = 'active' and n.next_retry_at is not null then greatest(n.next_retry_at, ${now}) end
        as next_retry_at,
      n.outstanding, s.event_types, c.scopes as creator_scopes, c.revoked_at is not null as creator_revoked
    from subscriptions s join api_clients c on c.id = s.created_by
    cross join lateral (
      select count(*)::int as attempts, (count(*) filter (where a.success))::int as successes
      from delivery_attempts a where a.subscription_id = s.id and a.started_at >= ${since}) w
    left join lateral (
      select a.started_at, a.success, a.response_status, a.error from delivery_attempts a
      where a.subscription_id = s.id order by a.started_at desc, a.id desc limit 1) l on true
    cross join lateral (
      select min(d.next_attempt_at) filter (where d.status = 'failed') as next_retry_at, count(*)::int as outstanding
      -- next_attempt_at: what deliveries_unfinished_by_subscription holds (migration 1200); the status decides.
      from deliveries d where d.subscription_id = s.id and d.next_attempt_at is not null
        and d.status in ('pending', 'delivering', 'failed')) n
    where s.id = any(${ids}::bigint[])
    order by s.created_at, s.id`;
  return rows.map((r) => ({
    id: r.external_id,
    url: r.url,
    status: r.status,
    success_rate: r.attempts ? Math.round((r.successes / r.attempts) * 10000) / 10000 : null,
    attempts_24h: r.attempts,
    successes_24h: r.successes,
    last_attempt_at: iso(r.last_attempt_at),
    last_attempt: r.last_attempt_at
      ? {
          at: iso(r.last_attempt_at),
          success: r.last_attempt_success,
          response_status: r.last_response_status,
          error: r.last_error,
        }
      : null,
    next_retry_at: iso(r.next_retry_at),
    outstanding_deliveries: r.outstanding,
    failing_since: iso(r.failing_since),
    disabled_at: iso(r.disabled_at),
    last_success_at: iso(r.last_success_at),
    withheld: r.event_types.flatMap((type) => {
      const why = withheldFrom({ scopes: new Set(r.creator_scopes), revoked: r.creator_revoked }, type);
      return why ? [{ event_type: type, ...why }] : [];
    }),
  }));
}
