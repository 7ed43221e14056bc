import { afterAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from './relay.ts';
import { bookingData, commitEvent, retireSubscriptions, subscribe } from './test-support.ts';

const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

interface LoggedDelivery {
  id: string;
  event_id: string;
}

const eventIds = (deliveries: LoggedDelivery[]) => deliveries.map((d) => d.event_id);

describe('delivery log of a subscription narrowed since', () => {
  it("hides the deliveries of a property outside the caller's allow-list: log, health and redelivery", async () => {
    const { live, shadow } = customer;
    const sub = await subscribe(t, customer.token, {
      url: 'https://pms.example.com/hooks/qc',
      event: 'booking.created',
      property_ids: [live.external_id, shadow.external_id],
    });
    const onLive = await commitEvent(t.deps, {
      type: 'booking.created',
      customerId: customer.customerId,
      propertyId: live.id,
      data: bookingData(1),
    });
    const onShadow = await commitEvent(t.deps, {
      type: 'booking.created',
      customerId: customer.customerId,
      propertyId: shadow.id,
      data: bookingData(2),
    });
    for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
    // Now it follows the shadow property only, so a credential of that property alone sees it.
    const narrowed = await t.request('PATCH', `/v1/qc/subscriptions/${sub.id}`, {
      token: customer.token,
      body: { property_ids: [shadow.external_id] },
    });
    expect(narrowed.status).toBe(200);
    const narrow = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'bookings.read'],
      property_ids: [shadow.external_id],
    });
    expect((await t.request('GET', `/v1/qc/subscriptions/${sub.id}`, { token: narrow.token })).status).toBe(200);

    const log = (token: string) =>
      t.request<{ data: { deliveries: LoggedDelivery[]; meta: { total: number } } }>('GET', '/v1/qc/deliveries', {
        token,
        query: { subscription_id: sub.id },
      });
    const full = await log(customer.token);
    expect(eventIds(full.body.data.deliveries).sort()).toEqual([onLive.event_id, onShadow.event_id].sort());
    const liveDelivery = full.body.data.deliveries.find((d) => d.event_id === onLive.event_id) as LoggedDelivery;

    const seen = await log(narrow.token);
    expect(eventIds(seen.body.data.deliveries)).toEqual([onShadow.event_id]);
    expect(seen.body.data.meta.total).toBe(1);
    const health = await t.request<{ data: { deliveries: LoggedDelivery[] } }>('GET', '/v1/qc/health/webhooks', {
      token: narrow.token,
    });
    expect(eventIds(health.body.data.deliveries)).toEqual([onShadow.event_id]);
    // A redelivery would send the live property's event to whatever URL the narrow credential set.
    const redelivered = await t.request('POST', `/v1/qc/deliveries/${liveDelivery.id}/redeliver`, {
      token: narrow.token,
    });
    expect(redelivered.status).toBe(404);
    expect(redelivered.body.message).toBe('errors.not_found');
    const own = await t.request('POST', `/v1/qc/deliveries/${liveDelivery.id}/redeliver`, { token: customer.token });
    expect(own.status).toBe(202);
  });
});

describe('delivery log of events the caller may not read', () => {
  it('hides booking deliveries from a credential without bookings.read: log, health and redelivery', async () => {
    const sub = await subscribe(t, customer.token, {
      url: 'https://pms.example.com/hooks/qc',
      event_types: ['booking.created', 'subscription.updated'],
    });
    const booking = await commitEvent(t.deps, {
      type: 'booking.created',
      customerId: customer.customerId,
      propertyId: customer.live.id,
      data: bookingData(3),
    });
    await t.request('PATCH', `/v1/qc/subscriptions/${sub.id}`, {
      token: customer.token,
      body: { url: 'https://pms.example.com/hooks/qc2' },
    });
    for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
    // It sees the subscription (account-scoped, like its creator), but the booking payload is bookings.read's.
    const manager = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage'],
      account_scoped: true,
    });
    const types = async (token: string) => {
      const res = await t.request<{ data: { deliveries: { event_type: string; id: string; event_id: string }[] } }>(
        'GET',
        '/v1/qc/deliveries',
        { token, query: { subscription_id: sub.id } },
      );
      return res.body.data.deliveries;
    };
    const full = await types(customer.token);
    expect(full.map((d) => d.event_type).sort()).toEqual(['booking.created', 'subscription.updated']);
    expect((await types(manager.token)).map((d) => d.event_type)).toEqual(['subscription.updated']);
    const health = await t.request('GET', '/v1/qc/health/webhooks', { token: manager.token });
    expect(health.body.data.deliveries.map((d: { event_type: string }) => d.event_type)).not.toContain(
      'booking.created',
    );
    const bookingDelivery = full.find((d) => d.event_id === booking.event_id);
    const redelivered = await t.request('POST', `/v1/qc/deliveries/${bookingDelivery?.id}/redeliver`, {
      token: manager.token,
    });
    expect(redelivered.status).toBe(404);
    expect(redelivered.body.message).toBe('errors.not_found');
  });
});
