import { afterAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { startWebhooks, type Webhooks } from './dispatcher.ts';
import { SWEEP_LIMIT } from './due-deliveries.ts';
import {
  commitBookingEvent,
  commitBookingEvents,
  hang,
  retireSubscriptions,
  startReceiver,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/**
 * When the jobs are lost (a restart, a crashed process, Redis lost), the sweep is what schedules due deliveries
 * again. It took the SWEEP_LIMIT oldest due deliveries of all subscriptions, so one customer whose receiver hangs
 * with more than that due filled every pass, and another customer's due deliveries were never swept while it
 * lasted: one customer's trouble reached another. Each subscription with due deliveries now gets its share of a pass.
 */
// Longer than the test: none of A's attempts ends, so A keeps more than SWEEP_LIMIT due throughout.
const DEADLINE_MS = 30_000;

describe('the sweep after lost jobs', () => {
  let t: TestApp;
  let relayOnly: Webhooks | undefined;
  let webhooks: Webhooks | undefined;
  let hung: TestReceiver;
  let healthy: TestReceiver;
  const demos: Demo[] = [];

  afterAll(async () => {
    // The hung receiver goes first: its connections close, so the attempts in flight end now, not at the deadline.
    await hung?.stop();
    await webhooks?.stop();
    await relayOnly?.stop();
    for (const demo of demos) await retireSubscriptions(t.deps, demo.customer_id);
    await t?.close();
    await healthy?.stop();
  });

  it("schedules another subscription's due deliveries in the same pass as a backlog over the limit", async () => {
    t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: '' } });
    hung = startReceiver(hang);
    healthy = startReceiver(() => new Response(null, { status: 204 }));
    const a = await t.demo();
    const b = await t.demo();
    demos.push(a, b);
    const subA = await subscribe(t, a.personal_token, { url: hung.url, event_types: ['booking.created'] });
    await subscribe(t, b.personal_token, { url: healthy.url, event_types: ['booking.created'] });

    // Relayed by a worker without a queue: the deliveries are due and no job or scheduler holds them, as after a
    // restart or a lost Redis. A's are all older than B's, so the oldest SWEEP_LIMIT of all are A's.
    relayOnly = await startWebhooks(t.deps, { autorun: false });
    await commitBookingEvents(t, a, 'booking.created', SWEEP_LIMIT + 100);
    await relayOnly.relayNow();
    for (let n = 1; n <= 3; n++) await commitBookingEvent(t, b, 'booking.created', n);
    await relayOnly.relayNow();

    webhooks = await startWebhooks(t.deps, { pollMs: 50, timeoutMs: DEADLINE_MS });
    const served = await healthy.waitFor(3, DEADLINE_MS / 2);

    expect(served.map((request) => request.headers.get('x-qc-event'))).toEqual([
      'booking.created',
      'booking.created',
      'booking.created',
    ]);
    // A's trouble stayed A's: every one of its deliveries is still unfinished, none recorded.
    const [unfinished] = await t.deps.db.sql<{ count: number }>`
      select count(*)::int as count from deliveries d join subscriptions s on s.id = d.subscription_id
      where s.external_id = ${subA.id} and d.status in ('pending', 'delivering')`;
    expect(unfinished?.count).toBe(SWEEP_LIMIT + 100);
  }, 60_000);
});
