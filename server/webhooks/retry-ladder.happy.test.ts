import { describe, expect, it } from 'bun:test';
import { LADDER_SECONDS, MAX_ATTEMPTS, nextUtcMidnight } from './ladder.ts';
import { commitBookingEvent, deliveryRows, steppedWebhookTest, subscribe } from './test-support.ts';

/** The ladder at its real values, on a ManualClock the test moves; runDue() plays the worker. */
describe('retry ladder', () => {
  const start = new Date('2026-01-12T10:00:00Z');
  const kit = steppedWebhookTest(start);
  const { clock, t, webhooks, demo } = kit;
  const receiver = kit.receiver(() => new Response('down', { status: 500 }));

  it('is exactly 5 s, 10 s, 30 s, 5 min, then 1 h twenty times, then dead', async () => {
    expect(LADDER_SECONDS).toEqual([5, 10, 30, 300, ...Array(20).fill(3600)]);
    expect(MAX_ATTEMPTS).toBe(25);
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.modified'] });
    await commitBookingEvent(t, demo, 'booking.modified', 3);

    await webhooks.runDue();
    expect(receiver.received).toHaveLength(1);
    let expectedAt = start.getTime();
    for (const [i, wait] of LADDER_SECONDS.entries()) {
      clock.advance(wait * 1000 - 1);
      await webhooks.runDue();
      expect(receiver.received).toHaveLength(i + 1); // not a millisecond early
      clock.advance(1);
      await webhooks.runDue();
      expect(receiver.received).toHaveLength(i + 2);
      expectedAt += wait * 1000;
      const request = receiver.received[i + 1];
      expect(request?.headers.get('x-qc-attempt')).toBe(String(i + 2));
      expect(request?.headers.get('x-qc-timestamp')).toBe(String(Math.floor(expectedAt / 1000)));
    }
    expect(new Set(receiver.received.map((r) => r.headers.get('x-qc-delivery'))).size).toBe(1);
    const [row] = await deliveryRows(t.deps, sub.id);
    expect(row).toMatchObject({ status: 'dead', attempts: 25, next_attempt_at: null, last_error: 'http_500' });

    clock.advance(48 * 3600_000);
    await webhooks.runDue();
    expect(receiver.received).toHaveLength(25);
  });

  it('marks each state in the log: failed with the next attempt while retrying, delivered after a 2xx', async () => {
    receiver.respond = (_, i) => new Response('', { status: i % 2 === 0 ? 502 : 200 });
    receiver.received.length = 0;
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.confirmed'] });
    await commitBookingEvent(t, demo, 'booking.confirmed', 4);
    const [pending] = await deliveryRows(t.deps, sub.id);
    expect(pending).toBeUndefined(); // not relayed yet: the relay runs with the worker
    await t.webhooks?.relayNow();
    expect((await deliveryRows(t.deps, sub.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });

    await t.webhooks?.runDue();
    const [failed] = await deliveryRows(t.deps, sub.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_error: 'http_502' });
    expect(failed?.next_attempt_at?.getTime()).toBe(clock.now().getTime() + 5000);

    const log = await t.request('GET', '/v1/qc/deliveries', {
      token: demo.personal_token,
      query: { status: 'failed' },
    });
    expect(log.body.data.deliveries.map((d: { id: string }) => d.id)).toContain(failed?.external_id);

    clock.advance(5000);
    await t.webhooks?.runDue();
    expect((await deliveryRows(t.deps, sub.id))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_error: null,
    });
  });

  it('computes the budget reset at the next 00:00 UTC', () => {
    expect(nextUtcMidnight(new Date('2026-01-12T23:59:59.999Z')).toISOString()).toBe('2026-01-13T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-01-13T00:00:00.000Z')).toISOString()).toBe('2026-01-14T00:00:00.000Z');
  });
});
