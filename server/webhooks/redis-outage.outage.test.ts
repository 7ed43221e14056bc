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
 * BullMQ's Redis goes away: events keep committing, nothing hangs (not the relay, not shutdown), and the
 * deliveries go out once Redis is back. A private redis-server, since the machine's one is shared.
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

    it('delays deliveries while Redis is down and delivers them when it is back', async () => {
      expect(t.webhooks?.queue).toBe('bullmq');
      const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
      const emit = (n: number) => commitBookingEvent(t, demo, 'booking.created', n);

      await emit(1);
      await receiver.waitFor(1);

      await redis.stop();
      await emit(2);
      await Bun.sleep(1500);
      expect(receiver.received).toHaveLength(1);
      // Relayed and waiting in the table, not lost with the queue.
      expect((await deliveryRows(t.deps, sub.id)).map((r) => r.status)).toEqual(['delivered', 'pending']);

      await redis.start();
      await receiver.waitFor(2, 15_000);
      expect(JSON.parse(receiver.received[1]?.body ?? '{}').data.revision_id).toBe(2);
    }, 30_000);

    it('shuts down within bounded time while Redis is down', async () => {
      await redis.stop();
      const started = Date.now();
      await t.close();
      expect(Date.now() - started).toBeLessThan(15_000);
    }, 30_000);
  },
);
