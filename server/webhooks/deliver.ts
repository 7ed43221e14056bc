import { utcDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { webhookDeliveryAttempts } from '../core/metrics.ts';
import { recordEvent } from '../core/outbox.ts';
import type { LookupFn } from '../core/ssrf-guard.ts';
import { AUTO_DISABLE_AFTER_MS, nextAttemptAt, nextUtcMidnight } from './ladder.ts';
import { sendDelivery } from './send.ts';

/** What one attempt needs beyond Deps; the dispatcher fills it from its options. */
export interface DeliverySettings {
  timeoutMs: number;
  /** Multiplies the ladder's waits (1 in production; tests and benchmarks shrink them). */
  delayScale: number;
  /** Deliveries a client may start per UTC day (the webhook-fanout budget). */
  fanoutPerDay: number;
  /** How long a claimed delivery stays with its worker before another may take it over. */
  leaseMs: number;
  lookup?: LookupFn;
}

export type AttemptResult =
  | { kind: 'skipped' }
  | { kind: 'deferred'; runAt: Date }
  | { kind: 'delivered'; attempt: number }
  // unreachable: no answer at all (timeout, refused connection, TLS): what opens the circuit (fair-scheduler.ts).
  | { kind: 'failed'; attempt: number; runAt: Date; unreachable: boolean }
  | { kind: 'dead'; attempt: number; unreachable: boolean };

interface Claim {
  id: number;
  external_id: string;
  attempts: number;
  status: string;
  body: string;
  event_type: string;
  secret_version: number;
  subscription_id: number;
  subscription_external_id: string;
  customer_id: number;
  url: string;
  secret: string;
  current_version: number;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_by: number;
}

/**
 * The claim and the success record commit without waiting for the WAL flush (each statement sets
 * synchronous_commit off for its own transaction only: `set_config(.., true)`). Every claim of a client's first attempts updates one fan-out usage
 * row, so those commits queued behind each other's disk flush: at most one delivery per flush. What a crash
 * can lose is the last fraction of a second of this bookkeeping, and losing it only repeats work the
 * contract allows to repeat: a lost claim or a lost success leaves the delivery due (or its lease to run
 * out), and it is delivered again with the same X-Qc-Delivery (at least once, spec 6.1).
 */
/**
 * One attempt of one delivery: claim it (only when due and its subscription is active), POST it, record
 * the outcome. Statuses: pending -> delivering -> delivered | failed (retry scheduled) | dead (ladder
 * exhausted); failed -> delivering on the next attempt. A worker that dies mid-attempt leaves
 * `delivering` with an expired lease, which any worker then takes over as the next attempt.
 */
export async function attemptDelivery(
  deps: Deps,
  settings: DeliverySettings,
  deliveryId: number,
): Promise<AttemptResult> {
  const claimed = await claim(deps, settings, deliveryId);
  if (!('claim' in claimed)) return claimed;
  const { claim: row, attempt, at } = claimed;
  const outcome = await sendDelivery({
    url: row.url,
    body: row.body,
    secret: signingSecret(row, at),
    subscriptionId: row.subscription_external_id,
    deliveryId: row.external_id,
    eventType: row.event_type,
    attempt,
    at,
    timeoutMs: settings.timeoutMs,
    clock: deps.clock,
    allowPrivate: deps.config.webhookAllowPrivate,
    lookup: settings.lookup,
  });
  const finishedAt = deps.clock.now();
  const result = outcome.success ? await recordSuccess() : await recordFailure();
  webhookDeliveryAttempts.inc({ outcome: result.kind });
  return result;

  async function recordSuccess(): Promise<AttemptResult> {
    // One statement (atomic on its own): the attempt, the delivery, and the subscription's streak. Every
    // success of a busy subscription would queue on its row; a streak to end or a stale last_success_at
    // (older than a second) is worth the write, anything else is not.
    await deps.db.sql`
      with attempt as (
        insert into delivery_attempts (delivery_id, subscription_id, attempt, started_at, duration_ms, response_status, error, success)
        values (${row.id}, ${row.subscription_id}, ${attempt}, ${at}, ${outcome.durationMs}, ${outcome.status}, null, true)
      ), delivered as (
        update deliveries set status = 'delivered', delivered_at = ${finishedAt}, next_attempt_at = null, lease_until = null,
          last_response_status = ${outcome.status}, last_error = null
        where id = ${row.id} and status = 'delivering' and attempts = ${attempt}
      ), streak as (
        update subscriptions set failing_since = null, last_success_at = ${finishedAt}
        where id = ${row.subscription_id}
          and (failing_since is not null or last_success_at is null or last_success_at < ${new Date(finishedAt.getTime() - 1000)})
      )
      select set_config('synchronous_commit', 'off', true)`;
    return { kind: 'delivered', attempt };
  }

  function recordFailure(): Promise<AttemptResult> {
    return deps.db.tx(async (tx) => {
      await tx.sql`
      insert into delivery_attempts (delivery_id, subscription_id, attempt, started_at, duration_ms, response_status, error, success)
      values (${row.id}, ${row.subscription_id}, ${attempt}, ${at}, ${outcome.durationMs}, ${outcome.status}, ${outcome.error}, false)`;
      const runAt = nextAttemptAt(attempt, finishedAt, settings.delayScale);
      await tx.sql`
      update deliveries set status = ${runAt ? 'failed' : 'dead'}, next_attempt_at = ${runAt ?? null}, lease_until = null,
        last_response_status = ${outcome.status}, last_error = ${outcome.error}
      where id = ${row.id} and status = 'delivering' and attempts = ${attempt}`;
      await noteFailure(tx, row, finishedAt);
      const unreachable = outcome.status === null;
      return runAt
        ? ({ kind: 'failed', attempt, runAt, unreachable } as const)
        : ({ kind: 'dead', attempt, unreachable } as const);
    });
  }
}

async function claim(
  deps: Deps,
  settings: DeliverySettings,
  deliveryId: number,
): Promise<{ claim: Claim; attempt: number; at: Date } | { kind: 'skipped' } | { kind: 'deferred'; runAt: Date }> {
  const at = deps.clock.now();
  // One statement, one round trip: lock the row when due (skip it when another worker holds it), charge the
  // client's fan-out budget on a delivery's first attempt (retries of a started delivery are free), then
  // either claim the row (delivering, under a lease) or, with the day's budget spent, defer it to midnight.
  const [row] = await deps.db.sql<Claim & { granted: boolean }>`
    with due as (
      select d.id, d.external_id, d.attempts, d.status, d.body, d.event_type, d.secret_version,
        s.id as subscription_id, s.external_id as subscription_external_id, s.customer_id, s.url, s.secret,
        s.secret_version as current_version, s.previous_secret, s.previous_secret_expires_at, s.created_by,
        (d.status = 'pending' and d.attempts = 0) as charged
      from deliveries d join subscriptions s on s.id = d.subscription_id
      where d.id = ${deliveryId} and s.status = 'active' and s.deleted_at is null
        and ((d.status in ('pending', 'failed') and d.next_attempt_at <= ${at})
          or (d.status = 'delivering' and d.lease_until <= ${at}))
      for update of d skip locked
    ), charge as (
      insert into webhook_fanout_usage (client_id, day, used)
      select created_by, ${utcDay(at)}::date, 1 from due where charged
      on conflict (client_id, day) do update set used = webhook_fanout_usage.used + 1
        where webhook_fanout_usage.used < ${settings.fanoutPerDay}
      returning used
    ), verdict as (
      select due.*, (not due.charged or exists (select 1 from charge)) as granted from due
    ), claimed as (
      update deliveries d set status = 'delivering', attempts = d.attempts + 1,
        lease_until = ${new Date(at.getTime() + settings.leaseMs)},
        first_attempt_at = coalesce(d.first_attempt_at, ${at}), last_attempt_at = ${at}
      from verdict v where d.id = v.id and v.granted
    ), deferred as (
      update deliveries d set next_attempt_at = ${nextUtcMidnight(at)} from verdict v where d.id = v.id and not v.granted
    )
    select v.*, set_config('synchronous_commit', 'off', true) as relaxed from verdict v`;
  if (!row) return { kind: 'skipped' };
  if (!row.granted) return { kind: 'deferred', runAt: nextUtcMidnight(at) };
  return { claim: row, attempt: row.attempts + 1, at };
}

/**
 * Rotation (spec 6.2.7): retries of a delivery made before a rotation stay signed with the old secret
 * for 24 hours after the rotation (the old secret "validates past deliveries"); deliveries made after it
 * are signed with the new one. A receiver accepting both secrets for those 24 hours verifies everything.
 * After the 24 hours, or once the secret was rotated again, the current secret signs every attempt.
 */
function signingSecret(row: Claim, at: Date): string {
  const previousValid = row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > at;
  if (row.secret_version === row.current_version - 1 && previousValid) return row.previous_secret as string;
  return row.secret;
}

/** Extends the subscription's failure streak; more than 72 hours of it with no success disables it. */
async function noteFailure(tx: Db, row: Claim, at: Date): Promise<void> {
  const [streak] = await tx.sql<{ failing_since: Date }>`
    update subscriptions set failing_since = coalesce(failing_since, ${at}) where id = ${row.subscription_id}
    returning failing_since`;
  if (!streak || at.getTime() - new Date(streak.failing_since).getTime() <= AUTO_DISABLE_AFTER_MS) return;
  const [disabled] = await tx.sql<{ external_id: string; url: string }>`
    update subscriptions set status = 'disabled', disabled_at = ${at}, disabled_reason = 'failing', updated_at = ${at}
    where id = ${row.subscription_id} and status = 'active'
    returning external_id, url`;
  if (!disabled) return;
  await recordEvent(tx, {
    type: 'subscription.disabled',
    customerId: row.customer_id,
    propertyId: null,
    data: {
      subscription_id: disabled.external_id,
      url: disabled.url,
      reason: 'failing',
      failing_since: new Date(streak.failing_since).toISOString(),
    },
  });
}
