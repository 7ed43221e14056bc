import { afterEach, describe, expect, it } from 'bun:test';
import { systemClock } from '../core/clock.ts';
import { parseRedisUrl } from '../core/config.ts';
import { createLog } from '../core/log.ts';
import { BullMqQueue } from './bullmq-queue.ts';

/**
 * Issue 16 defect 5: after a PostgreSQL shutdown a delivery kept 0 attempts for 20 minutes through 4 restarts:
 * its attempt failed, the failed BullMQ job kept its job id, and the sweep's reschedule under that same id was
 * dropped. Real Redis, a queue of its own; the first run fails as it did with the database down.
 */
const redis = parseRedisUrl(process.env.REDIS_URL as string);
let queue: BullMqQueue | undefined;
afterEach(async () => {
  await queue?.close();
  queue = undefined;
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

describe('a webhook delivery job that failed', () => {
  it('does not block a later schedule of the same delivery at the same time', async () => {
    const runs: number[] = [];
    let failures = 0;
    queue = new BullMqQueue(
      { redis, prefix: `qc-test-${crypto.randomUUID()}`, concurrency: 1 },
      systemClock,
      async (deliveryId) => {
        runs.push(deliveryId);
        if (runs.length === 1) {
          failures++;
          throw new Error('write CONNECTION_CLOSED (PostgreSQL is down)');
        }
      },
      createLog('silent'),
    );
    const job = { deliveryId: 42, subscriptionId: 7, runAt: new Date(), key: `42-${Date.now()}` };
    await queue.schedule(job);
    await until(() => failures === 1, 'the failing attempt');
    // Let BullMQ settle the failed job before the sweep reschedules it under the same key.
    await Bun.sleep(200);
    await queue.schedule(job);
    await until(() => runs.length === 2, 'the rescheduled attempt');
    expect(runs).toEqual([42, 42]);
  }, 20_000);
});
