import { beforeEach, describe, expect, it } from 'bun:test';
import { commitBookingEvent, deliveryRows, steppedWebhookTest, subscribe } from './test-support.ts';

const HOUR = 3600_000;

describe('auto-disable after more than 72 hours of failures', () => {
  const start = new Date('2026-01-20T00:00:00Z');
  // Afresh for every test: app, clock back at `start`, demo customer and receivers.
  const kit = steppedWebhookTest(start, {}, { each: true });
  const { clock, t, webhooks, demo } = kit;
  let up: boolean;
  let n = 0;
  beforeEach(() => {
    up = false;
  });
  const receiver = kit.receiver(() => new Response('', { status: up ? 200 : 500 }));
  const monitor = kit.receiver();

  const emit = () => commitBookingEvent(t, demo, 'booking.modified', ++n);
  const show = async (id: string) =>
    (await t.request('GET', `/v1/qc/subscriptions/${id}`, { token: demo.personal_token })).body.data;

  it('disables at the first failure more than 72 h into the streak, announces it, and enable brings it back', async () => {
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.modified'] });
    await subscribe(t, demo.personal_token, {
      url: monitor.url,
      event_types: ['subscription.disabled', 'subscription.enabled'],
    });
    await emit();
    await webhooks.runDue();
    expect((await show(sub.id)).failing_since).toBe(start.toISOString());

    clock.set(new Date(start.getTime() + 72 * HOUR));
    await emit();
    await webhooks.runDue();
    expect((await show(sub.id)).status).toBe('active'); // exactly 72 h is not more than 72 h

    clock.advance(5000); // the second event's retry, 72 h 5 s into the streak
    await webhooks.runDue();
    const disabled = await show(sub.id);
    expect(disabled).toMatchObject({
      status: 'disabled',
      disabled_reason: 'failing',
      failing_since: start.toISOString(),
    });
    expect(disabled.disabled_at).toBe(clock.now().toISOString());
    // Its deliveries are parked: outstanding, but no retry is coming until it is enabled.
    const health = await t.request('GET', '/v1/qc/health/webhooks', { token: demo.personal_token });
    expect(health.body.data.subscriptions.find((s: { id: string }) => s.id === sub.id)).toMatchObject({
      status: 'disabled',
      outstanding_deliveries: 2,
      next_retry_at: null,
    });

    await webhooks.runDue();
    const announced = monitor.received.map((r) => JSON.parse(r.body));
    expect(announced).toEqual([
      expect.objectContaining({
        type: 'subscription.disabled',
        property_id: null,
        data: { subscription_id: sub.id, url: receiver.url, reason: 'failing', failing_since: start.toISOString() },
      }),
    ]);

    // Disabled: no attempts, and events meanwhile create no deliveries (the feed has them).
    const before = receiver.received.length;
    await emit();
    clock.advance(2 * HOUR);
    await webhooks.runDue();
    expect(receiver.received.length).toBe(before);
    expect(await deliveryRows(t.deps, sub.id)).toHaveLength(2);

    up = true;
    const enabled = await t.request('POST', `/v1/qc/subscriptions/${sub.id}/enable`, { token: demo.personal_token });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({
      status: 'active',
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
    });
    await webhooks.runDue();
    // The parked deliveries resume where their ladder was.
    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered']);
    expect(receiver.received.length).toBe(before + 2);
    await webhooks.runDue();
    expect(monitor.received.map((r) => r.headers.get('x-qc-event'))).toEqual([
      'subscription.disabled',
      'subscription.enabled',
    ]);

    const again = await t.request('POST', `/v1/qc/subscriptions/${sub.id}/enable`, { token: demo.personal_token });
    expect(again.status).toBe(200);
    await webhooks.runDue();
    expect(monitor.received).toHaveLength(2); // enabling an active subscription announces nothing
  });

  it('restarts the streak at any success', async () => {
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.modified'] });
    await emit();
    await webhooks.runDue();
    expect((await show(sub.id)).failing_since).toBe(start.toISOString());

    clock.set(new Date(start.getTime() + 40 * HOUR));
    up = true;
    await emit();
    await webhooks.runDue();
    const healed = await show(sub.id);
    expect(healed.failing_since).toBeNull();
    expect(healed.last_success_at).toBe(clock.now().toISOString());

    up = false;
    clock.set(new Date(start.getTime() + 73 * HOUR));
    await emit();
    await webhooks.runDue();
    clock.set(new Date(start.getTime() + 100 * HOUR));
    await emit();
    await webhooks.runDue();
    const still = await show(sub.id);
    expect(still.status).toBe('active'); // 27 h of failures since the success, not 100
    expect(still.failing_since).toBe(new Date(start.getTime() + 73 * HOUR).toISOString());
  });
});
