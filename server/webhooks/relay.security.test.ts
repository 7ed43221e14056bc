import { afterAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from './relay.ts';
import { bookingData, commitEvent, deliveryRows, retireSubscriptions, subscribe } from './test-support.ts';

const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

const URL = 'https://pms.example.com/hooks/qc';

/** A booking event on the live property, relayed: answers how many deliveries each subscription got of it. */
async function bookingEventDelivered(...subscriptions: string[]): Promise<number[]> {
  const event = await commitEvent(t.deps, {
    type: 'booking.created',
    customerId: customer.customerId,
    propertyId: customer.live.id,
    data: bookingData(1),
  });
  for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
  const [relayed] = await t.deps.db.sql<{ done: boolean }>`
    select relayed_at is not null as done from outbox_events where id = ${event.id}`;
  expect(relayed?.done).toBe(true);
  const counts: number[] = [];
  for (const id of subscriptions) {
    const rows = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from deliveries d join subscriptions s on s.id = d.subscription_id
      where s.external_id = ${id} and d.outbox_event_id = ${event.id}`;
    counts.push(rows[0]?.n ?? 0);
  }
  return counts;
}

describe('relay of the events of a property the allow-list hides', () => {
  it('delivers nothing of a disabled property or a paused group, to a subscription naming it or following all', async () => {
    const named = await subscribe(t, customer.token, {
      url: URL,
      event: 'booking.created',
      property_ids: [customer.live.external_id],
    });
    const all = await subscribe(t, customer.token, { url: URL, event: 'booking.created' });
    expect(await bookingEventDelivered(named.id, all.id)).toEqual([1, 1]);

    const disabled = await t.ops('PUT', `/ops/properties/${customer.live.external_id}/status`, { status: 'disabled' });
    expect(disabled.status).toBe(200);
    expect(await bookingEventDelivered(named.id, all.id)).toEqual([0, 0]);
    await t.ops('PUT', `/ops/properties/${customer.live.external_id}/status`, { status: 'active' });

    const group = await t.request<{ data: { id: string } }>('POST', '/v1/qc/property-groups', {
      token: customer.token,
      body: { name: 'paused in the relay test', property_ids: [customer.live.external_id] },
    });
    expect(group.status).toBe(201);
    const paused = await t.request('PATCH', `/v1/qc/property-groups/${group.body.data.id}`, {
      token: customer.token,
      body: { paused: true },
    });
    expect(paused.status).toBe(200);
    expect(await bookingEventDelivered(named.id, all.id)).toEqual([0, 0]);

    await t.request('PATCH', `/v1/qc/property-groups/${group.body.data.id}`, {
      token: customer.token,
      body: { paused: false },
    });
    expect(await bookingEventDelivered(named.id, all.id)).toEqual([1, 1]);
    expect((await deliveryRows(t.deps, named.id)).length).toBe((await deliveryRows(t.deps, all.id)).length);
  });
});
