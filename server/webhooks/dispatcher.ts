import { resolve } from 'node:path';
import { sha256Hex } from '../core/auth/secrets.ts';
import type { Config } from '../core/config.ts';
import type { Deps } from '../core/deps.ts';
import { WEBHOOK_FANOUT_PER_DAY } from '../core/limits/budgets.ts';
import { errorFields } from '../core/log.ts';
import type { LookupFn } from '../core/ssrf-guard.ts';
import { withTimeout } from '../core/timeout.ts';
import type { ClaimOutcome } from './claim-deliveries.ts';
import { type AttemptResult, attemptDelivery, type DeliverySettings, deliveryBatches } from './deliver.ts';
import { type DeliveryJob, type DeliveryQueue, InProcessQueue, jobKey } from './delivery-queue.ts';
import { dueDeliveries, SWEEP_LIMIT } from './due-deliveries.ts';
import { DueSweep } from './due-sweep.ts';
import { FAIR_DEFAULTS, type FairOptions, FairScheduler } from './fair-scheduler.ts';
import { RESPONSE_DEADLINE_MS } from './ladder.ts';
import { RELAY_BATCH, RELAY_FIRST_BATCH, relayBatch } from './relay.ts';

/** The channel migration 0502 notifies on every outbox insert, at commit: the relay runs at once, not at its next poll. */
const OUTBOX_CHANNEL = 'qc_outbox';

export interface WebhookOptions {
  /** false: no loop, no queue; the caller drives everything with relayNow()/runDue() (tests with a ManualClock). */
  autorun?: boolean;
  /** How often the outbox is relayed and due deliveries without a job are swept up (PostgreSQL also wakes the relay on commit). */
  pollMs?: number;
  /** Attempts in flight per process. */
  concurrency?: number;
  /** Per-subscription limit and circuit of the fair scheduler (fair-scheduler.ts); defaults in FAIR_DEFAULTS. */
  fair?: Partial<Omit<FairOptions, 'concurrency'>>;
  timeoutMs?: number;
  delayScale?: number;
  fanoutPerDay?: number;
  leaseMs?: number;
  /** BullMQ key prefix (REDIS_URL set); by default derived from the database, see queuePrefix(). */
  prefix?: string;
  lookup?: LookupFn;
}

export interface Webhooks {
  readonly queue: 'bullmq' | 'in-process' | 'manual';
  /** Relays every committed outbox event now; answers how many events were relayed. */
  relayNow(): Promise<number>;
  /** Relays, then attempts every due delivery in this process and waits for the outcomes. */
  runDue(): Promise<AttemptResult[]>;
  stop(): Promise<void>;
}

/**
 * Attempts in flight per process by default: each is a socket and a promise, no database connection (claims and
 * successes go in batches), so the bound is about fairness: every subscription's share (FAIR_DEFAULTS) is a
 * sixteenth of it.
 */
export const DELIVERY_CONCURRENCY = 128;

// A queue that does not answer (Redis down) must not stall the relay nor shutdown: the row stays due.
const SCHEDULE_DEADLINE_MS = 2000;

/**
 * Jobs carry a delivery id of one database, so the queue is namespaced by the database: deployments (or
 * test databases) sharing one Redis never run each other's jobs, while every process of one deployment
 * shares the queue.
 */
export function queuePrefix(config: Config): string {
  return `qc-webhooks-${sha256Hex(config.databaseUrl ?? resolve(config.dataDir)).slice(0, 16)}`;
}
// A job scheduled within this window is assumed alive; the sweep does not schedule it again.
const RESCHEDULE_AFTER_MS = 60_000;

/**
 * The delivery machinery of one process: the outbox relay, the queue (BullMQ or in-process) and the
 * sweep. Every `pollMs` it relays new outbox events (scheduling their deliveries at once) and schedules
 * any due delivery that has no live job: those of a process that crashed, of a restart, of a Redis
 * outage, of a subscription enabled again, of a redelivery. Started by server/main.ts; tests start it
 * through the harness.
 */
export async function startWebhooks(deps: Deps, options: WebhookOptions = {}): Promise<Webhooks> {
  const timeoutMs = options.timeoutMs ?? RESPONSE_DEADLINE_MS;
  const settings: DeliverySettings = {
    timeoutMs,
    delayScale: options.delayScale ?? 1,
    fanoutPerDay: options.fanoutPerDay ?? WEBHOOK_FANOUT_PER_DAY,
    leaseMs: options.leaseMs ?? timeoutMs * 2,
    lookup: options.lookup,
  };
  const autorun = options.autorun ?? true;
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;

  let queue: DeliveryQueue | undefined;
  const recentlyScheduled = new Map<string, number>();
  const scheduleAll = async (jobs: DeliveryJob[]) => {
    if (!queue) return;
    const now = Date.now();
    let fresh = jobs.filter((job) => (recentlyScheduled.get(job.key) ?? 0) <= now);
    // Due now: straight to this process's scheduler, no job round trip through the queue (a delivery per job
    // cost two Redis scripts; the fan-out of a committed batch is most of the traffic). Only later attempts (the
    // retry ladder, a deferral to midnight) wait in the queue. A process that dies with them in memory leaves
    // them due in the table, and the sweep of any process finds them.
    const due = clockNow();
    for (const job of fresh) {
      if (job.runAt.getTime() > due) continue;
      fair?.submit(job.deliveryId, job.subscriptionId);
      recentlyScheduled.set(job.key, now + RESCHEDULE_AFTER_MS);
    }
    fresh = fresh.filter((job) => job.runAt.getTime() > due);
    if (!fresh.length) return;
    try {
      await withTimeout(queue.scheduleMany(fresh), SCHEDULE_DEADLINE_MS);
      for (const job of fresh) recentlyScheduled.set(job.key, now + RESCHEDULE_AFTER_MS);
    } catch (err) {
      // The rows stay due in the database; the sweep schedules them again once the queue answers.
      deps.log.warn('webhook deliveries not scheduled', {
        deliveries: fresh.map((job) => job.deliveryId),
        ...errorFields(err),
      });
    }
  };
  const schedule = (deliveryId: number, subscriptionId: number, runAt: Date) =>
    scheduleAll([{ deliveryId, subscriptionId, runAt, key: jobKey(deliveryId, runAt) }]);

  // Deliveries whose attempt failed on this side (a lost database connection, not the receiver), by when. The
  // delivery stays due in the table but its job was marked as scheduled for RESCHEDULE_AFTER_MS: the next sweep
  // unmarks it, so it goes out again within a poll, not a minute later (failed-attempt.outage.test.ts).
  const failedAttempts = new Map<number, number>();
  const batches = deliveryBatches(deps, settings);
  const attempt = async (
    deliveryId: number,
    subscriptionId: number,
    answered?: () => void,
    claimed?: Promise<ClaimOutcome>,
  ): Promise<AttemptResult> => {
    let result: AttemptResult;
    try {
      result = await attemptDelivery(deps, settings, batches, deliveryId, answered, claimed);
    } catch (err) {
      failedAttempts.set(deliveryId, Date.now());
      throw err;
    }
    if (result.kind === 'failed' || result.kind === 'deferred')
      await schedule(deliveryId, subscriptionId, result.runAt);
    if (result.kind !== 'skipped') deps.log.info('webhook attempt', { delivery: deliveryId, ...result });
    return result;
  };

  // The queue only wakes deliveries; the fair scheduler decides which attempt runs next (issue 25 N4).
  const fair = autorun
    ? new FairScheduler<ClaimOutcome>(
        { ...FAIR_DEFAULTS, ...options.fair, concurrency },
        attempt,
        deps.log,
        Date.now,
        (deliveryId) => batches.claim.add(deliveryId),
      )
    : undefined;
  const clockNow = () => deps.clock.now().getTime();

  const relayNow = async (): Promise<number> => {
    let total = 0;
    // A backlog is relayed in batches that grow to RELAY_BATCH: the first deliveries of a large commit go out
    // after a short transaction, and later batches are relayed while those are being sent.
    for (let limit = RELAY_FIRST_BATCH; ; limit = Math.min(RELAY_BATCH, limit * 4)) {
      const { events, deliveries } = await relayBatch(deps, limit);
      total += events;
      await scheduleAll(
        deliveries.map((d) => ({
          deliveryId: d.id,
          subscriptionId: d.subscriptionId,
          runAt: d.nextAttemptAt,
          key: jobKey(d.id, d.nextAttemptAt),
        })),
      );
      if (events < limit) return total;
    }
  };

  // Fair between subscriptions (due-deliveries.ts): one subscription's backlog never fills a whole sweep, and beyond
  // SWEEP_LIMIT subscriptions with due deliveries they are served in turn. The sweep shares a pass at most once a
  // second (due-sweep.ts); runDue() reads every time.
  const dueSweep = new DueSweep(deps.db);

  const sweep = async () => {
    const now = Date.now();
    for (const [key, until] of recentlyScheduled) if (until <= now) recentlyScheduled.delete(key);
    // Past RESCHEDULE_AFTER_MS the mark a failure must lift has expired by itself.
    for (const [id, at] of failedAttempts) if (at + RESCHEDULE_AFTER_MS <= now) failedAttempts.delete(id);
    const jobs: DeliveryJob[] = [];
    for (const row of await dueSweep.pass(deps.clock.now())) {
      const subscriptionId = Number(row.subscription_id);
      let job: DeliveryJob | undefined;
      if (row.status === 'delivering' && row.lease_until) {
        const key = jobKey(row.id, row.lease_until, 'lease');
        job = { deliveryId: row.id, subscriptionId, runAt: row.lease_until, key };
      } else if (row.next_attempt_at) {
        const key = jobKey(row.id, row.next_attempt_at);
        job = { deliveryId: row.id, subscriptionId, runAt: row.next_attempt_at, key };
      }
      if (!job) continue;
      if (failedAttempts.delete(row.id)) recentlyScheduled.delete(job.key);
      jobs.push(job);
    }
    await scheduleAll(jobs);
  };

  if (autorun) {
    const run = async (deliveryId: number, subscriptionId: number) => fair?.submit(deliveryId, subscriptionId);
    // BullMQ is loaded only with Redis: the embedded default never uses it, and loading it was about 110 ms of a
    // start's 0.4 s of module loading (docs/performance.md, "Start, second pass").
    queue = deps.config.redis
      ? new (await import('./bullmq-queue.ts')).BullMqQueue(
          { redis: deps.config.redis, prefix: options.prefix ?? queuePrefix(deps.config), concurrency },
          deps.clock,
          run,
          deps.log,
        )
      : new InProcessQueue(deps.clock, concurrency, run, deps.log);
  }

  // One relay-and-sweep pass at a time, every `pollMs`.
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pass = () => {
    if (stopped) return;
    if (running) return;
    clearTimeout(timer);
    running = (async () => {
      try {
        await relayNow();
        await sweep();
      } catch (err) {
        deps.log.error('webhook relay or sweep failed', errorFields(err));
      }
    })().finally(() => {
      running = undefined;
      if (stopped) return;
      timer = setTimeout(pass, options.pollMs ?? 200);
    });
  };
  // A committed outbox event is relayed at once, never behind a pass in progress: the sweep's query grows
  // with the deliveries table and held the relay up by a hundred milliseconds and more. One notified relay at
  // a time (a notification during it runs another right after); it may overlap the pass's relay, which is
  // safe: each takes its events `for update skip locked`.
  let relaying: Promise<void> | undefined;
  let relayAgain = false;
  const relaySoon = () => {
    if (stopped) return;
    if (relaying) {
      relayAgain = true;
      return;
    }
    relaying = relayNow()
      .then(
        () => {},
        (err) => deps.log.error('webhook relay failed', errorFields(err)),
      )
      .finally(() => {
        relaying = undefined;
        if (relayAgain) {
          relayAgain = false;
          relaySoon();
        }
      });
  };
  if (autorun) {
    // Db.listen gives LISTEN a session of its own (the direct URL behind a transaction pooler), listens again
    // after a reconnect and then calls relaySoon once, since notifications may have been missed; it ends with
    // the database. The poll stays the safety net: without LISTEN the relay waits at most one poll. A first LISTEN
    // that fails (the session URL out of reach at start) does not hold start-up: the driver keeps trying it, and
    // its first call back says it is in place, which the operator who saw the warning is told once.
    let listenFailed = false;
    await deps.db
      .listen(OUTBOX_CHANNEL, () => {
        if (listenFailed) {
          listenFailed = false;
          deps.log.info('outbox LISTEN in place; the relay is woken on commit again');
        }
        relaySoon();
      })
      .catch((err) => {
        listenFailed = true;
        deps.log.warn('outbox LISTEN unavailable; the relay polls until it is in place', errorFields(err));
      });
    pass();
  }

  return {
    queue: queue?.kind ?? 'manual',
    relayNow,
    runDue: async () => {
      await relayNow();
      const results: AttemptResult[] = [];
      for (const row of await dueDeliveries(deps.db, deps.clock.now(), SWEEP_LIMIT))
        results.push(await attempt(row.id, Number(row.subscription_id)));
      return results;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await relaying;
      // Attempts in flight finish first, while the queue still takes their retries; jobs arriving meanwhile
      // are let go (their rows stay due for the next start's sweep).
      await fair?.close();
      await queue?.close();
    },
  };
}
