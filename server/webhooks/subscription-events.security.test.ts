import { afterAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from './relay.ts';
import { deliveryRows, retireSubscriptions, subscribe } from './test-support.ts';

const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

interface LoggedDelivery {
  id: string;
  event_type: string;
  payload: { data: { subscription_id: string; url: string } };
}

const SUBSCRIPTION_EVENTS = ['subscription.created', 'subscription.updated', 'subscription.deleted'];

describe('relay and delivery log of subscription.* events between credentials of one customer', () => {
  it('sends and shows a subscription event only to who sees the subscription it is about', async () => {
    const narrow = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage'],
      property_ids: [customer.shadow.external_id],
    });
    const narrowOwn = await subscribe(t, narrow.token, {
      url: 'https://pms.example.com/hooks/narrow',
      event_types: SUBSCRIPTION_EVENTS,
    });
    // The account-scoped credential's subscription of the shadow property: the narrow credential sees it too.
    const shared = await subscribe(t, customer.token, {
      url: 'https://pms.example.com/hooks/shared',
      event_types: SUBSCRIPTION_EVENTS,
      property_ids: [customer.shadow.external_id],
    });
    // One of the live property, which the narrow credential may not see (404), its URL carrying a token.
    const hidden = await subscribe(t, customer.token, {
      url: 'https://pms.example.com/hooks/live?token=not-for-the-shadow-credential',
      event: 'booking.created',
      property_ids: [customer.live.external_id],
    });
    expect((await t.request('GET', `/v1/qc/subscriptions/${hidden.id}`, { token: narrow.token })).status).toBe(404);
    for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;

    const log = (token: string, subscription: string) =>
      t.request<{ data: { deliveries: LoggedDelivery[]; meta: { total: number } } }>('GET', '/v1/qc/deliveries', {
        token,
        query: { subscription_id: subscription, per_page: 100 },
      });
    const subjects = (deliveries: LoggedDelivery[]) => deliveries.map((d) => d.payload.data.subscription_id).sort();

    // The narrow credential's own subscription is sent the events of the subscriptions it sees, not the hidden one's
    // (the table: what goes to its receiver, whatever the log shows).
    expect((await deliveryRows(t.deps, narrowOwn.id)).length).toBe(2);
    const own = await log(narrow.token, narrowOwn.id);
    expect(subjects(own.body.data.deliveries)).toEqual([narrowOwn.id, shared.id].sort());
    // The account-scoped credential sees every subscription: its own is sent those created from its creation on.
    const full = await log(customer.token, shared.id);
    expect(subjects(full.body.data.deliveries)).toEqual([shared.id, hidden.id].sort());

    // Reading the shared subscription's log, the narrow credential is not shown the hidden one's event either.
    const seen = await log(narrow.token, shared.id);
    expect(subjects(seen.body.data.deliveries)).toEqual([shared.id]);
    expect(seen.body.data.meta.total).toBe(1);
    expect(JSON.stringify(seen.body)).not.toContain('not-for-the-shadow-credential');
    const health = await t.request<{ data: { deliveries: LoggedDelivery[] } }>('GET', '/v1/qc/health/webhooks', {
      token: narrow.token,
    });
    expect(subjects(health.body.data.deliveries)).not.toContain(hidden.id);
    const ofHidden = full.body.data.deliveries.find((d) => d.payload.data.subscription_id === hidden.id);
    const redelivered = await t.request('POST', `/v1/qc/deliveries/${ofHidden?.id}/redeliver`, {
      token: narrow.token,
    });
    expect(redelivered.status).toBe(404);
    expect(redelivered.body.message).toBe('errors.not_found');
  });
});
