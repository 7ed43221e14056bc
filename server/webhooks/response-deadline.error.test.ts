import { afterEach, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { RESPONSE_DEADLINE_MS } from './ladder.ts';
import {
  commitBookingEvent,
  hang,
  startReceiver,
  stopWebhookTest,
  subscribe,
  type TestReceiver,
} from './test-support.ts';

describe('response deadline', () => {
  let t: TestApp;
  let receiver: TestReceiver;
  let demo: Demo;

  afterEach(() => stopWebhookTest(t, demo, receiver));

  async function lastAttempt(subscriptionId: string) {
    const [row] = await t.deps.db.sql<{
      duration_ms: number;
      error: string | null;
      success: boolean;
      response_status: number | null;
    }>`
      select a.duration_ms, a.error, a.success, a.response_status from delivery_attempts a
      join subscriptions s on s.id = a.subscription_id where s.external_id = ${subscriptionId}
      order by a.id desc limit 1`;
    return row;
  }

  /**
   * A receiver that hangs, on the injectable clock: once the request has reached it, time moves to just
   * before the deadline (the attempt is still open) and then onto it (the attempt ends as a timeout).
   */
  async function run(env: Record<string, string>, timeoutMs?: number) {
    const clock = new ManualClock('2026-01-09T00:00:00Z');
    const deadline = timeoutMs ?? RESPONSE_DEADLINE_MS;
    t = await startTestApp({ clock, env, webhooks: { pollMs: 50, timeoutMs } });
    receiver = startReceiver(hang);
    demo = await t.demo();
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
    await commitBookingEvent(t, demo, 'booking.created', 1);
    await receiver.waitFor(1);
    clock.advance(deadline - 1);
    await Bun.sleep(100);
    const before = await lastAttempt(sub.id);
    clock.advance(1);
    // Waits for the attempt to be recorded; the deadline itself is the clock's, not this loop's.
    for (let polls = 0; polls < 200 && !(await lastAttempt(sub.id)); polls++) await Bun.sleep(50);
    return { before, attempt: await lastAttempt(sub.id) };
  }

  it('cuts a hanging receiver at 5 seconds and counts it as a failure (in-process queue)', async () => {
    expect(RESPONSE_DEADLINE_MS).toBe(5000);
    const { before, attempt } = await run({ REDIS_URL: '' });
    expect(before).toBeUndefined();
    expect(attempt).toMatchObject({ success: false, error: 'timeout', response_status: null, duration_ms: 5000 });
  });

  it.skipIf(!process.env.REDIS_URL)('cuts a hanging receiver at the configured deadline (BullMQ)', async () => {
    const { before, attempt } = await run({}, 400);
    expect(before).toBeUndefined();
    expect(attempt).toMatchObject({ success: false, error: 'timeout', response_status: null, duration_ms: 400 });
  });
});
