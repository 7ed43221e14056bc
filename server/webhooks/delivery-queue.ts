import type { Clock } from '../core/clock.ts';
import { errorFields, type Log } from '../core/log.ts';

/**
 * Where delivery attempts wait until they are due: BullMQ delayed jobs when REDIS_URL is set, timers in
 * this process otherwise. Either way the deliveries table is the truth (an attempt claims its row only
 * when due), so a job may be lost or run twice without harm: the dispatcher's sweep re-schedules any due
 * row that has no job, and a second run of a job finds nothing to claim.
 */
export interface DeliveryJob {
  deliveryId: number;
  /** Whose receiver the attempt goes to: the fair scheduler's lane (fair-scheduler.ts). */
  subscriptionId: number;
  runAt: Date;
  /** Deterministic id: one job per delivery and scheduled time (no ':' for BullMQ). */
  key: string;
}

export interface DeliveryQueue {
  readonly kind: 'bullmq' | 'in-process';
  schedule(job: DeliveryJob): Promise<void>;
  /** Several at once: a relayed batch becomes jobs in one round trip rather than one each. */
  scheduleMany(jobs: readonly DeliveryJob[]): Promise<void>;
  close(): Promise<void>;
}

export type RunDelivery = (deliveryId: number, subscriptionId: number) => Promise<void>;

export function jobKey(deliveryId: number, at: Date, kind: 'due' | 'lease' = 'due'): string {
  return `delivery-${deliveryId}-${kind}-${at.getTime()}`;
}

// setTimeout holds at most 2^31-1 ms; a later job is re-armed when that fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The embedded default: timers until due, then at most `concurrency` attempts at once. */
export class InProcessQueue implements DeliveryQueue {
  readonly kind = 'in-process';
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #queued = new Set<string>();
  readonly #waiting: DeliveryJob[] = [];
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly concurrency: number,
    private readonly run: RunDelivery,
    private readonly log: Log,
  ) {}

  async schedule(job: DeliveryJob): Promise<void> {
    if (this.#closed || this.#timers.has(job.key) || this.#queued.has(job.key)) return;
    const wait = job.runAt.getTime() - this.clock.now().getTime();
    if (wait <= 0) return this.#enqueue(job);
    const timer = setTimeout(
      () => {
        this.#timers.delete(job.key);
        if (wait > MAX_TIMER_MS) void this.schedule(job);
        else this.#enqueue(job);
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    this.#timers.set(job.key, timer);
  }

  async scheduleMany(jobs: readonly DeliveryJob[]): Promise<void> {
    for (const job of jobs) await this.schedule(job);
  }

  #enqueue(job: DeliveryJob): void {
    this.#queued.add(job.key);
    this.#waiting.push(job);
    this.#pump();
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.concurrency) {
      const job = this.#waiting.shift();
      if (!job) return;
      const running: Promise<void> = this.run(job.deliveryId, job.subscriptionId)
        .catch((err) =>
          this.log.error('webhook delivery failed unexpectedly', { delivery: job.deliveryId, ...errorFields(err) }),
        )
        .finally(() => {
          this.#running.delete(running);
          this.#queued.delete(job.key);
          this.#pump();
        });
      this.#running.add(running);
    }
  }

  /** Stops taking work and waits for the attempts in flight (each bounded by the response deadline). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#waiting.length = 0;
    await Promise.all(this.#running);
  }
}
