import { errorFields, type Log } from '../core/log.ts';
import type { AttemptResult } from './deliver.ts';

/**
 * Which due delivery this process attempts next (issue 25 N4: one customer's hung receiver delayed every
 * customer's webhooks). The queue (BullMQ or the in-process timers) only says "this delivery may be due"; a job
 * hands its delivery here and is done at once, so a hung receiver holds no queue slot. Attempts then run:
 *
 * - at most `concurrency` at once in this process, and at most `perSubscription` of them for one subscription:
 *   a receiver that hangs ties up its own share (each attempt cut at the 5 s deadline), never the whole pool;
 * - one subscription after another (round robin), subscriptions whose receiver answers first: one with a backlog
 *   of hundreds does not make the others wait behind its queue;
 * - not at all for a while after `openAfter` attempts in a row found the receiver unreachable (timeout, refused
 *   connection, TLS): the circuit opens for `cooldownMs`; then one attempt probes it (half open), and a probe
 *   that finds the receiver still unreachable opens it again for twice as long, up to `maxCooldownMs`; an answer
 *   closes it. Only a probe lengthens the pause: the attempts already in flight when the circuit opened (up to
 *   `perSubscription` of them, all waiting on the same dead receiver) end unreachable one after another, and
 *   doubling on each took one short outage of 16 to the 5-minute cap before a single probe was sent.
 *   A receiver that answers, even with an error status, keeps its circuit closed: its deliveries follow the
 *   retry ladder as before.
 *
 * Waiting deliveries live only in memory: the deliveries table stays the truth. A delivery waiting here is still
 * due in the database, so after a restart (or when more than `maxWaiting` wait for one subscription and the rest are
 * let go) the dispatcher's sweep schedules it again; nothing is dropped, and every attempt still claims its row.
 */
export interface FairOptions {
  concurrency: number;
  perSubscription: number;
  openAfter: number;
  cooldownMs: number;
  maxCooldownMs: number;
  maxWaiting: number;
}

export const FAIR_DEFAULTS: Omit<FairOptions, 'concurrency'> = {
  // A sixteenth of the dispatcher's 128 attempts (DELIVERY_CONCURRENCY): as with 8 of 64, it takes eight receivers
  // hung at once to tie up a process. At 8, one busy subscription's rate was set by its 8 requests' round trips
  // on a loaded machine, not by the machine: bench/webhooks.ts, 0.50-0.57x of BullMQ's no-op jobs against
  // 0.56-0.66x at 16 (docs/performance.md, "Tenth session").
  perSubscription: 16,
  openAfter: 3,
  cooldownMs: 5_000,
  maxCooldownMs: 300_000,
  maxWaiting: 10_000,
};

interface Lane<C> {
  subscriptionId: number;
  waiting: number[];
  /** Waiting or running here: a second job for the same delivery is not queued twice. */
  held: Set<number>;
  running: number;
  /** Waiting deliveries claimed ahead (see ClaimAhead), by delivery: always the first ones waiting. */
  claimed: Map<number, Promise<C>>;
  /** Attempts in a row that found the receiver unreachable. */
  unreachable: number;
  openUntil: number;
  /** The pause of the circuit's latest opening: doubled by each failed probe, back to the first when it closes. */
  cooldownMs: number;
  /** How many times the circuit opened: a probe's outcome counts only for the opening it probed. */
  openings: number;
}

/**
 * Runs one attempt. `answered` may be called once the receiver accepted the delivery, before the success is
 * recorded: the attempt then no longer counts against its subscription's share (the share bounds the requests
 * open at a receiver; the record is PostgreSQL's business and is batched, issue 27). Failures keep their slot
 * until their outcome is known, which the circuit needs before the next attempt starts.
 */
export type Attempt<C> = (
  deliveryId: number,
  subscriptionId: number,
  answered: () => void,
  /** The claim made ahead for this attempt, if any. */
  claimed?: Promise<C>,
) => Promise<AttemptResult>;

/**
 * Claims a waiting delivery before a slot of its subscription's share frees, so that the attempt sends the moment
 * one does: one subscription's deliveries go through `perSubscription` slots, and a claim inside the slot (a
 * statement's round trip, about half of each slot's time in bench/webhooks.ts) left the receiver that much idle.
 * Only while the share is full and its receiver answers, and never more than the share: a claim made ahead waits
 * for at most one request of its lane (each cut at the deadline), well inside its lease. One still waiting when
 * the circuit opens, or when the process stops, is left to its lease, as a crash leaves it.
 */
export type ClaimAhead<C> = (deliveryId: number) => Promise<C>;

export class FairScheduler<C = unknown> {
  readonly #lanes = new Map<number, Lane<C>>();
  #cursor = 0;
  #running = 0;
  readonly #inFlight = new Set<Promise<void>>();
  #wake: ReturnType<typeof setTimeout> | undefined;
  #wakeAt = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor(
    private readonly options: FairOptions,
    private readonly attempt: Attempt<C>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
    private readonly claimAhead?: ClaimAhead<C>,
  ) {}

  /** A delivery that may be due; `subscriptionId` 0 when the job did not say (one shared lane). */
  submit(deliveryId: number, subscriptionId: number): void {
    if (this.#closed) return;
    let lane = this.#lanes.get(subscriptionId);
    if (!lane) {
      lane = {
        subscriptionId,
        waiting: [],
        held: new Set(),
        running: 0,
        claimed: new Map(),
        unreachable: 0,
        openUntil: 0,
        cooldownMs: this.options.cooldownMs,
        openings: 0,
      };
      this.#lanes.set(subscriptionId, lane);
    }
    if (lane.held.has(deliveryId) || lane.waiting.length >= this.options.maxWaiting) return;
    lane.held.add(deliveryId);
    lane.waiting.push(deliveryId);
    this.#pump();
    this.#claimAheadIn(lane);
  }

  /** What a lane looks like now (tests and the benchmark read it). */
  state(subscriptionId: number): { waiting: number; running: number; open: boolean; pausedMs: number } | undefined {
    const lane = this.#lanes.get(subscriptionId);
    if (!lane) return undefined;
    const pausedMs = Math.max(0, lane.openUntil - this.now());
    return { waiting: lane.waiting.length, running: lane.running, open: pausedMs > 0, pausedMs };
  }

  /** Stops starting attempts and waits for those in flight (each bounded by the response deadline). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#wake);
    this.#lanes.clear();
    await Promise.all(this.#inFlight);
  }

  #pump(): void {
    while (!this.#closed && this.#running < this.options.concurrency) {
      const lane = this.#next();
      if (!lane) break;
      this.#start(lane);
    }
    this.#armWake();
  }

  /** The next lane allowed to start an attempt: round robin, lanes whose receiver answers before the others. */
  #next(): Lane<C> | undefined {
    const lanes = [...this.#lanes.values()];
    const now = this.now();
    let suspect: { lane: Lane<C>; index: number } | undefined;
    for (let i = 0; i < lanes.length; i++) {
      const index = (this.#cursor + i) % lanes.length;
      const lane = lanes[index] as Lane<C>;
      if (!this.#mayStart(lane, now)) continue;
      if (lane.unreachable === 0) {
        this.#cursor = index + 1;
        return lane;
      }
      suspect ??= { lane, index };
    }
    if (suspect) this.#cursor = suspect.index + 1;
    return suspect?.lane;
  }

  #mayStart(lane: Lane<C>, now: number): boolean {
    if (!lane.waiting.length || lane.openUntil > now) return false;
    // Half open (the circuit was open): one probe at a time until an attempt reaches the receiver.
    const limit = lane.unreachable >= this.options.openAfter ? 1 : this.options.perSubscription;
    return lane.running < limit;
  }

  #start(lane: Lane<C>): void {
    const deliveryId = lane.waiting.shift() as number;
    // Half open: this attempt is the probe of the circuit's latest opening (#mayStart lets one through).
    const probeOf = lane.unreachable >= this.options.openAfter ? lane.openings : undefined;
    const claimed = lane.claimed.get(deliveryId);
    lane.claimed.delete(deliveryId);
    lane.running++;
    this.#running++;
    let slot = true;
    const release = () => {
      if (!slot) return;
      slot = false;
      lane.running--;
      this.#running--;
    };
    const answered = () => {
      release();
      this.#pump();
    };
    const run: Promise<void> = this.attempt(deliveryId, lane.subscriptionId, answered, claimed)
      .then(
        (result) => this.#record(lane, result, probeOf),
        (err) => this.log.error('webhook delivery failed unexpectedly', { delivery: deliveryId, ...errorFields(err) }),
      )
      .finally(() => {
        release();
        lane.held.delete(deliveryId);
        this.#inFlight.delete(run);
        // A drained lane is forgotten. Only this lane: once it was, a new burst may have opened another for the
        // subscription while this attempt (answered, its share given back) was still being recorded.
        const drained = !lane.running && !lane.waiting.length && lane.openUntil <= this.now() && !lane.unreachable;
        if (drained && this.#lanes.get(lane.subscriptionId) === lane) this.#lanes.delete(lane.subscriptionId);
        this.#pump();
      });
    this.#inFlight.add(run);
    this.#claimAheadIn(lane);
  }

  /** See ClaimAhead: the lane's first waiting deliveries, as many as its share, while the share is full. */
  #claimAheadIn(lane: Lane<C>): void {
    if (!this.claimAhead || this.#closed || lane.unreachable || lane.running < this.options.perSubscription) return;
    for (const deliveryId of lane.waiting) {
      if (lane.claimed.size >= this.options.perSubscription) return;
      if (lane.claimed.has(deliveryId)) continue;
      const claimed = this.claimAhead(deliveryId);
      // Its attempt awaits it and reports a failure; one never started (closed, circuit open) must not go unhandled.
      claimed.catch(() => {});
      lane.claimed.set(deliveryId, claimed);
    }
  }

  #record(lane: Lane<C>, result: AttemptResult, probeOf: number | undefined): void {
    if (result.kind === 'delivered' || ((result.kind === 'failed' || result.kind === 'dead') && !result.unreachable)) {
      lane.unreachable = 0;
      lane.openUntil = 0;
      lane.cooldownMs = this.options.cooldownMs;
      return;
    }
    if (result.kind !== 'failed' && result.kind !== 'dead') return;
    lane.unreachable++;
    if (lane.unreachable < this.options.openAfter) return;
    if (lane.unreachable === this.options.openAfter) {
      lane.openings++;
    } else if (probeOf === lane.openings) {
      lane.cooldownMs = Math.min(lane.cooldownMs * 2, this.options.maxCooldownMs);
    } else {
      // An attempt that started before the circuit opened, or probed an opening that has closed since: the pause
      // it found stands, neither lengthened nor restarted.
      return;
    }
    lane.openUntil = this.now() + lane.cooldownMs;
    this.log.warn('webhook receiver unreachable: deliveries paused', {
      subscription: lane.subscriptionId,
      attempts_in_a_row: lane.unreachable,
      paused_ms: lane.cooldownMs,
      waiting: lane.waiting.length,
    });
  }

  /** A lane paused by its circuit has nothing to wake it but time: pump again when the earliest one reopens. */
  #armWake(): void {
    if (this.#closed) return;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const lane of this.#lanes.values())
      if (lane.waiting.length && lane.openUntil > now) next = Math.min(next, lane.openUntil);
    if (next === this.#wakeAt) return;
    clearTimeout(this.#wake);
    this.#wakeAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.#wake = setTimeout(
      () => {
        this.#wakeAt = Number.POSITIVE_INFINITY;
        this.#pump();
      },
      Math.max(0, next - now),
    );
  }
}
