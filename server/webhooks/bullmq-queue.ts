import { Queue, Worker } from 'bullmq';
import type { Clock } from '../core/clock.ts';
import type { RedisTarget } from '../core/config.ts';
import { errorFields, type Log } from '../core/log.ts';
import { closeRedis, createRedis } from '../core/redis.ts';
import type { DeliveryJob, DeliveryQueue, RunDelivery } from './delivery-queue.ts';

export const QUEUE_NAME = 'qc-webhook-deliveries';

export interface BullMqQueueOptions {
  redis: RedisTarget;
  /**
   * Redis key prefix: tests use a unique one per test so queues never meet. It is used as a hash tag
   * (`{prefix}`), so every key of the queue lands in one Redis Cluster slot, as BullMQ's scripts require.
   */
  prefix: string;
  concurrency: number;
}

/**
 * Deliveries as BullMQ jobs: a job per (delivery, scheduled time), delayed until due, run by a worker in
 * every service process. The job carries only the delivery id; the row says what to send.
 */
export class BullMqQueue implements DeliveryQueue {
  readonly kind = 'bullmq';
  readonly #queue: Queue;
  readonly #worker: Worker;
  readonly #redis: ReturnType<typeof createRedis>;

  constructor(
    options: BullMqQueueOptions,
    private readonly clock: Clock,
    run: RunDelivery,
    log: Log,
  ) {
    // A queue must wait out a Redis hiccup rather than fail fast like the request-path clients.
    this.#redis = createRedis(options.redis, log, 'queue');
    const common = { connection: this.#redis, prefix: `{${options.prefix}}` };
    this.#queue = new Queue(QUEUE_NAME, {
      ...common,
      // A kept job keeps its id, and BullMQ ignores an add under an existing id: a delivery whose attempt failed
      // (PostgreSQL down) stayed pending for good once the sweep rescheduled it at the same time. The database
      // is the record of attempts, so no job is kept.
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    this.#worker = new Worker(
      QUEUE_NAME,
      async (job) => run(Number(job.data.deliveryId), Number(job.data.subscriptionId ?? 0)),
      {
        ...common,
        concurrency: options.concurrency,
        autorun: false,
      },
    );
    this.#queue.on('error', (err) => log.warn('webhook queue error', errorFields(err)));
    this.#worker.on('error', (err) => log.warn('webhook worker error', errorFields(err)));
    this.#worker.on('failed', (job, err) =>
      log.error('webhook delivery job failed', { job: job?.id, ...errorFields(err) }),
    );
    void this.#worker.run();
  }

  async schedule(job: DeliveryJob): Promise<void> {
    await this.scheduleMany([job]);
  }

  async scheduleMany(jobs: readonly DeliveryJob[]): Promise<void> {
    const now = this.clock.now().getTime();
    await this.#queue.addBulk(
      jobs.map((job) => ({
        name: 'deliver',
        data: { deliveryId: job.deliveryId, subscriptionId: job.subscriptionId },
        opts: { jobId: job.key, delay: Math.max(0, job.runAt.getTime() - now) },
      })),
    );
  }

  /**
   * Lets the jobs in flight finish (each bounded by the response deadline), then closes. With Redis gone
   * a graceful close would wait for it forever: after `graceMs` the connections are dropped instead; an
   * interrupted attempt is taken over by another worker when its lease runs out.
   */
  async close(graceMs = 10_000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceful = Promise.all([this.#worker.close(), this.#queue.close()]).then(() => true);
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    const closed = await Promise.race([graceful, late]);
    clearTimeout(timer);
    if (closed) return closeRedis(this.#redis);
    // Nothing of this waits: a disconnect would wait for the Redis that is gone.
    for (const pending of [this.#worker.close(true), this.#worker.disconnect(), this.#queue.disconnect()]) {
      pending.catch(() => {});
    }
    this.#redis.disconnect();
  }
}
