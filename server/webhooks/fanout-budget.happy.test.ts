import { describe, expect, it } from 'bun:test';
import { commitBookingEvent, deliveryRows, steppedWebhookTest, subscribe } from './test-support.ts';

describe('webhook-fanout daily budget', () => {
  const start = new Date('2026-03-03T22:00:00Z');
  const kit = steppedWebhookTest(start, { fanoutPerDay: 2 });
  const { clock, t, demo } = kit;
  const receiver = kit.receiver((_, i) => new Response('', { status: i === 0 ? 500 : 200 }));

  it('queues deliveries past the budget until 00:00 UTC and delivers every one of them', async () => {
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
    for (let n = 1; n <= 5; n++) await commitBookingEvent(t, demo, 'booking.created', n);
    await t.webhooks?.runDue();
    expect(receiver.received).toHaveLength(2);
    const midnight = '2026-03-04T00:00:00.000Z';
    const queued = await t.request('GET', '/v1/qc/deliveries', {
      token: demo.personal_token,
      query: { status: 'pending' },
    });
    expect(queued.body.data.deliveries).toHaveLength(3);
    for (const d of queued.body.data.deliveries) expect(d).toMatchObject({ attempts: 0, next_attempt_at: midnight });

    // A delivery already started keeps its ladder: retries are not new deliveries.
    clock.advance(5000);
    await t.webhooks?.runDue();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.headers.get('x-qc-attempt')).toBe('2');

    clock.set(new Date(new Date(midnight).getTime() - 1));
    await t.webhooks?.runDue();
    expect(receiver.received).toHaveLength(3);

    clock.set(new Date(midnight));
    await t.webhooks?.runDue();
    expect(receiver.received).toHaveLength(5);
    clock.set(new Date('2026-03-05T00:00:00Z'));
    await t.webhooks?.runDue();
    expect(receiver.received).toHaveLength(6);

    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows.map((r) => r.status)).toEqual(Array(5).fill('delivered'));
    const revisions = receiver.received
      .filter((r) => r.headers.get('x-qc-attempt') === '1')
      .map((r) => JSON.parse(r.body).data.revision_id);
    expect(revisions.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts per client: another credential of the customer has its own budget', async () => {
    clock.set(new Date('2026-03-06T12:00:00Z'));
    const first = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.no_show'] });
    const { token } = await t.client({
      customer_id: demo.customer_id,
      scopes: ['subscriptions.manage', 'bookings.read'],
      property_ids: demo.properties.map((p) => p.external_property_id),
    });
    const second = await subscribe(t, token, { url: receiver.url, event_types: ['booking.no_show'] });
    for (let n = 1; n <= 3; n++) await commitBookingEvent(t, demo, 'booking.no_show', n);
    await t.webhooks?.runDue();
    const statuses = async (id: string) => (await deliveryRows(t.deps, id)).map((r) => r.status);
    expect(await statuses(first.id)).toEqual(['delivered', 'delivered', 'pending']);
    expect(await statuses(second.id)).toEqual(['delivered', 'delivered', 'pending']);
  });
});
