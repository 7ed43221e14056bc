import type { Deps } from '../core/deps.ts';

/** One attempt that reached its receiver with a 2xx. */
export interface Success {
  deliveryId: number;
  subscriptionId: number;
  attempt: number;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  status: number;
}

/**
 * Records the successful attempts of a batch in one statement (issue 27: one a delivery was half the fan-out's
 * statements): an attempt row each, the delivery delivered only while it is still this attempt's (`delivering`
 * with these attempts: a delivery whose lease ran out and that another worker took over is left to that worker),
 * and each subscription's streak. Every success of a busy subscription would queue on its row; a streak to end
 * or a stale last_success_at (older than a second) is worth the write, anything else is not. The commit does not
 * wait for the WAL flush, for the reason claimDeliveries gives: a lost success record only repeats a delivery.
 */
export async function recordSuccesses(deps: Deps, successes: Success[]): Promise<void> {
  await deps.db.sql`
    with done as (
      -- Each array as a subquery, so that a generic plan wins (see claimDeliveries).
      select * from unnest((select ${successes.map((s) => s.deliveryId)}::bigint[]),
        (select ${successes.map((s) => s.subscriptionId)}::bigint[]), (select ${successes.map((s) => s.attempt)}::int[]),
        (select ${successes.map((s) => s.startedAt.toISOString())}::timestamptz[]),
        (select ${successes.map((s) => s.finishedAt.toISOString())}::timestamptz[]),
        (select ${successes.map((s) => s.durationMs)}::int[]), (select ${successes.map((s) => s.status)}::int[]))
        as x(delivery_id, subscription_id, attempt, started_at, finished_at, duration_ms, response_status)
    ), attempt as (
      insert into delivery_attempts (delivery_id, subscription_id, attempt, started_at, duration_ms, response_status, error, success)
      select delivery_id, subscription_id, attempt, started_at, duration_ms, response_status, null, true from done
    ), delivered as (
      update deliveries d set status = 'delivered', delivered_at = done.finished_at, next_attempt_at = null,
        lease_until = null, last_response_status = done.response_status, last_error = null
      -- A case expression, so that no plan scans a partial index for the status (see claimDeliveries).
      from done where d.id = done.delivery_id
        and case when d.status = 'delivering' then d.attempts = done.attempt else false end
    ), streak as (
      update subscriptions s set failing_since = null, last_success_at = x.finished_at
      from (select subscription_id, max(finished_at) as finished_at from done group by subscription_id) x
      where s.id = x.subscription_id
        and (s.failing_since is not null or s.last_success_at is null
          or s.last_success_at < x.finished_at - interval '1 second')
    )
    select set_config('synchronous_commit', 'off', true)`;
}
