import { afterEach, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { RESPONSE_DEADLINE_MS } from './ladder.ts';
import {
  commitBookingEvent,
  startReceiver,
  stopWebhookTest,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/** A receiver that accepts the request and never answers. */
const hang = () => new Promise<Response>(() => {});

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

  async function run(env: Record<string, string>, timeoutMs?: number) {
    t = await startTestApp({ clock: new WallClock(), env, webhooks: { pollMs: 50, timeoutMs } });
    receiver = startReceiver(hang);
    demo = await t.demo();
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
    await commitBookingEvent(t, demo, 'booking.created', 1);
    await receiver.waitFor(1);
    const deadline = Date.now() + (timeoutMs ?? RESPONSE_DEADLINE_MS) + 3000;
    while (!(await lastAttempt(sub.id)) && Date.now() < deadline) await Bun.sleep(50);
    return lastAttempt(sub.id);
  }

  it('cuts a hanging receiver at 5 seconds and counts it as a failure (in-process queue, real deadline)', async () => {
    expect(RESPONSE_DEADLINE_MS).toBe(5000);
    const attempt = await run({ REDIS_URL: '' });
    expect(attempt).toMatchObject({ success: false, error: 'timeout', response_status: null });
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(4990);
    expect(attempt?.duration_ms).toBeLessThan(6500);
  }, 20_000);

  it.skipIf(!process.env.REDIS_URL)('cuts a hanging receiver at the configured deadline (BullMQ)', async () => {
    const attempt = await run({}, 400);
    expect(attempt).toMatchObject({ success: false, error: 'timeout', response_status: null });
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(390);
    expect(attempt?.duration_ms).toBeLessThan(2000);
  });
});
