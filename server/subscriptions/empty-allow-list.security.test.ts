import { afterAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from '../webhooks/relay.ts';
import { commitEvent, deliveryRows, retireSubscriptions, subscribe } from '../webhooks/test-support.ts';

/**
 * Spec 5.5: an explicit empty `property_ids` on a fixed credential denies every property. An account-level
 * subscription (explicit `property_ids: []`) covers no property, so such a credential manages and receives it as any
 * fixed credential of the customer does; every subscription that covers a property stays hidden from it (README,
 * "Who sees a subscription").
 */
const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

const URL = 'https://pms.example.com/hooks/qc';
// property.updated: a property's event that needs no scope beside subscriptions.manage (README, Webhooks, Events).
const ACCOUNT_EVENTS = ['subscription.created', 'subscription.updated', 'property.updated'];

const empty = perFile(() =>
  t.client({ customer_id: customer.customerId, scopes: ['subscriptions.manage'], property_ids: [] }),
);

const listed = async (token: string) =>
  (await t.request('GET', '/v1/qc/subscriptions', { token })).body.data.subscriptions.map((s: { id: string }) => s.id);

describe('a fixed credential with an empty allow-list and account-level subscriptions', () => {
  it('sees account-level subscriptions only: none that covers a property, listed or all', async () => {
    const accountLevel = await subscribe(t, customer.token, {
      url: URL,
      event_types: ACCOUNT_EVENTS,
      property_ids: [],
    });
    const all = await subscribe(t, customer.token, { url: URL, event_types: ACCOUNT_EVENTS });
    const live = await subscribe(t, customer.token, {
      url: URL,
      event_types: ACCOUNT_EVENTS,
      property_ids: [customer.live.external_id],
    });
    expect(await listed(empty.token)).toEqual([accountLevel.id]);
    for (const id of [all.id, live.id]) {
      const res = await t.request('PATCH', `/v1/qc/subscriptions/${id}`, { token: empty.token, body: { url: URL } });
      expect(res.body).toEqual(errorEnvelope('errors.not_found'));
    }
    const moved = await t.request('PATCH', `/v1/qc/subscriptions/${accountLevel.id}`, {
      token: empty.token,
      body: { url: 'https://pms.example.com/hooks/moved' },
    });
    expect(moved.status).toBe(200);
  });

  it('makes account-level subscriptions, refuses to name a property, and is sent no event of a property', async () => {
    const own = await subscribe(t, empty.token, { url: URL, event_types: ACCOUNT_EVENTS });
    const shown = await t.request('GET', `/v1/qc/subscriptions/${own.id}`, { token: empty.token });
    expect(shown.body.data).toMatchObject({ property_ids: [], all_properties: false });
    const naming = await t.request('POST', '/v1/qc/subscriptions', {
      token: empty.token,
      body: { url: URL, event_types: ACCOUNT_EVENTS, property_ids: [customer.live.external_id] },
    });
    expect(naming.body).toEqual(errorEnvelope('errors.qc.subscription.unknown_property'));

    await commitEvent(t.deps, {
      type: 'property.updated',
      customerId: customer.customerId,
      propertyId: customer.live.id,
    });
    for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
    expect((await deliveryRows(t.deps, own.id)).map((d) => d.event_type)).toEqual(['subscription.created']);
  });
});
