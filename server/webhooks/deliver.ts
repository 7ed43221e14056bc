import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { webhookDeliveryAttempts } from '../core/metrics.ts';
import { recordEvent } from '../core/outbox.ts';
import type { LookupFn } from '../core/ssrf-guard.ts';
import { type Claim, type ClaimOutcome, claimDeliveries } from './claim-deliveries.ts';
import { AUTO_DISABLE_AFTER_MS, nextAttemptAt } from './ladder.ts';
import { recordSuccesses, type Success } from './record-successes.ts';
import { sendDelivery } from './send.ts';
import { TickBatch } from './tick-batch.ts';

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

/**
 * The claims and the success records of one process go to PostgreSQL in batches (issue 27): those asked for in
 * one turn of the event loop, or while the previous batch's statement was under way, are one statement.
 */
// Nothing waits on a success record (the lane's share was given back when the receiver answered), so its batch
// gathers a few milliseconds more: bench/webhooks.ts, 5 ms against none, same runs: PostgreSQL's CPU a delivery
// 145-195 us against 175-275, the service's 135-220 against 150-250, the claim's wait 1.1 ms against 1.2-1.4.
// A crash in those milliseconds loses their records, which only repeats the deliveries (as claimDeliveries says).
const SUCCESS_LINGER_MS = 5;

export interface DeliveryBatches {
  claim: TickBatch<number, ClaimOutcome>;
  success: TickBatch<Success, void>;
}

export function deliveryBatches(deps: Deps, settings: DeliverySettings): DeliveryBatches {
  return {
    claim: new TickBatch((ids) => claimDeliveries(deps, settings, ids)),
    success: new TickBatch<Success, void>(
      async (successes) => {
        await recordSuccesses(deps, successes);
        return successes.map(() => undefined);
      },
      500,
      SUCCESS_LINGER_MS,
    ),
  };
}

/**
 * One attempt of one delivery: claim it (only when due and its subscription is active), POST it, record
 * the outcome. Statuses: pending -> delivering -> delivered | failed (retry scheduled) | dead (ladder
 * exhausted); failed -> delivering on the next attempt. A worker that dies mid-attempt leaves
 * `delivering` with an expired lease, which any worker then takes over as the next attempt.
 */
export async function attemptDelivery(
  deps: Deps,
  settings: DeliverySettings,
  batches: DeliveryBatches,
  deliveryId: number,
  /** Called once the receiver accepted the delivery, before the success is recorded (fair-scheduler.ts). */
  answered?: () => void,
  /** The claim the fair scheduler made ahead (ClaimAhead in fair-scheduler.ts), else the attempt claims now. */
  claimedAhead?: Promise<ClaimOutcome>,
): Promise<AttemptResult> {
  const claimed = await (claimedAhead ?? batches.claim.add(deliveryId));
  if (!('claim' in claimed)) return claimed;
  const { claim: row, attempt, at } = claimed;
  // A claim made ahead that waited so long that its request could outlast the lease is left to the lease: another
  // worker (or this one) takes it over as the next attempt, as after a crash.
  if (claimedAhead && deps.clock.now().getTime() - at.getTime() > settings.leaseMs - settings.timeoutMs)
    return { kind: 'skipped' };
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
  if (outcome.success) answered?.();
  const result = outcome.success ? await recordSuccess() : await recordFailure();
  webhookDeliveryAttempts.inc({ outcome: result.kind });
  return result;

  async function recordSuccess(): Promise<AttemptResult> {
    await batches.success.add({
      deliveryId: row.id,
      subscriptionId: row.subscription_id,
      attempt,
      startedAt: at,
      finishedAt,
      durationMs: outcome.durationMs,
      status: outcome.status as number,
    });
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
