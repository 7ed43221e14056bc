import { afterAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import {
  commitBookingEvent,
  retireSubscriptions,
  startReceiver,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/**
 * Issue 25 N4: one customer's hung receiver delayed every customer's webhooks (each hung attempt held one of the
 * delivery slots until its deadline). Through HTTP end to end: customer A's receiver accepts connections and
 * never answers, 40 of A's deliveries are queued ahead of B's, and B's receiver must get its deliveries while
 * A's attempts are still hanging, with A holding no more than its per-subscription share.
 *
 * Before the fair scheduler, the 8 slots all went to A's first 8 jobs for the whole (here 20 s) deadline, five
 * rounds of them, and B's deliveries waited behind all 40.
 */
const hang = () => new Promise<Response>(() => {});
const DEADLINE_MS = 20_000;

for (const queue of process.env.REDIS_URL ? ['bullmq', 'in-process'] : ['in-process']) {
  describe(`fair webhook delivery (${queue} queue)`, () => {
    let t: TestApp;
    let hung: TestReceiver;
    let healthy: TestReceiver;
    const demos: Demo[] = [];

    afterAll(async () => {
      // The hung receiver goes first: its connections close, so the attempts in flight end now, not at the deadline.
      await hung?.stop();
      for (const demo of demos) await retireSubscriptions(t.deps, demo.customer_id);
      await t?.close();
      await healthy?.stop();
    });

    it("serves another customer's receiver while one customer's receiver hangs with a backlog", async () => {
      t = await startTestApp({
        clock: new WallClock(),
        env: queue === 'in-process' ? { REDIS_URL: '' } : {},
        webhooks: { pollMs: 50, timeoutMs: DEADLINE_MS, concurrency: 8, fair: { perSubscription: 2 } },
      });
      hung = startReceiver(hang);
      healthy = startReceiver(() => new Response(null, { status: 204 }));
      const a = await t.demo();
      const b = await t.demo();
      demos.push(a, b);
      const subA = await subscribe(t, a.personal_token, { url: hung.url, event_types: ['booking.created'] });
      await subscribe(t, b.personal_token, { url: healthy.url, event_types: ['booking.created'] });

      for (let n = 1; n <= 40; n++) await commitBookingEvent(t, a, 'booking.created', n);
      await hung.waitFor(2);
      for (let n = 1; n <= 5; n++) await commitBookingEvent(t, b, 'booking.created', n);
      const served = await healthy.waitFor(5, DEADLINE_MS);

      expect(served).toHaveLength(5);
      // Every one of A's attempts is still hanging: none has reached its deadline and been recorded.
      const [finished] = await t.deps.db.sql<{ count: number }>`
        select count(*)::int as count from delivery_attempts a join subscriptions s on s.id = a.subscription_id
        where s.external_id = ${subA.id}`;
      expect(finished?.count).toBe(0);
      // A holds its share of the slots (2), not all 8.
      expect(hung.received.length).toBe(2);
    }, 60_000);
  });
}

describe('fair webhook delivery, default share', () => {
  let t: TestApp;
  let slow: TestReceiver;
  let demo: Demo;
  let release: () => void = () => {};

  afterAll(async () => {
    release();
    if (demo) await retireSubscriptions(t.deps, demo.customer_id);
    await t?.close();
    await slow?.stop();
  });

  it('sends one subscription at most 16 requests at once, as the README says, and the rest as they answer', async () => {
    t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: '' }, webhooks: { pollMs: 50 } });
    // Every request waits for the test to let it go (well inside the 5 s deadline): what is open is what was sent.
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    slow = startReceiver(async () => {
      await held;
      return new Response(null, { status: 204 });
    });
    demo = await t.demo();
    await subscribe(t, demo.personal_token, { url: slow.url, event_types: ['booking.created'] });

    for (let n = 1; n <= 24; n++) await commitBookingEvent(t, demo, 'booking.created', n);
    await slow.waitFor(16);
    await Bun.sleep(300);
    expect(slow.received.length).toBe(16);
    release();
    expect(await slow.waitFor(24)).toHaveLength(24);
  }, 30_000);
});
