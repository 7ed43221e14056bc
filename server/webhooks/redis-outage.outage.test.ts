import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { ThrowawayRedis } from '../testing/throwaway-redis.ts';
import {
  commitBookingEvent,
  deliveryRows,
  retireSubscriptions,
  startReceiver,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/**
 * BullMQ's Redis goes away: events keep committing, nothing hangs (not the relay, not shutdown), and deliveries
 * keep going out: one due now never needed the queue (the table holds the work, the fair scheduler runs it), and
 * the queue takes later attempts again once Redis is back. A private redis-server, since the machine's one is
 * shared.
 */
describe.skipIf(!process.env.DATABASE_URL || !Bun.which('redis-server'))(
  'webhooks through a Redis outage (BullMQ)',
  () => {
    let redis: ThrowawayRedis;
    let t: TestApp;
    let receiver: TestReceiver;
    let demo: Demo;

    beforeAll(async () => {
      redis = await ThrowawayRedis.start();
      t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: redis.url }, webhooks: { pollMs: 100 } });
      receiver = startReceiver();
      demo = await t.demo();
    });
    afterAll(async () => {
      await retireSubscriptions(t.deps, demo.customer_id);
      await redis.stop();
      await receiver.stop();
    });

    it('keeps delivering while Redis is down, and after it is back', async () => {
      expect(t.webhooks?.queue).toBe('bullmq');
      const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
      const emit = (n: number) => commitBookingEvent(t, demo, 'booking.created', n);

      await emit(1);
      await receiver.waitFor(1);

      await redis.stop();
      await emit(2);
      await receiver.waitFor(2, 15_000);
      expect(JSON.parse(receiver.received[1]?.body ?? '{}').data.revision_id).toBe(2);
      // Recorded as delivered too (the record commits just after the receiver answered).
      const statuses = async () => (await deliveryRows(t.deps, sub.id)).map((r) => r.status);
      for (let i = 0; i < 100 && (await statuses()).includes('delivering'); i++) await Bun.sleep(50);
      expect(await statuses()).toEqual(['delivered', 'delivered']);

      await redis.start();
      await emit(3);
      await receiver.waitFor(3, 15_000);
      expect(JSON.parse(receiver.received[2]?.body ?? '{}').data.revision_id).toBe(3);
    }, 30_000);

    it('shuts down within bounded time while Redis is down', async () => {
      await redis.stop();
      const started = Date.now();
      await t.close();
      expect(Date.now() - started).toBeLessThan(15_000);
    }, 30_000);
  },
);
