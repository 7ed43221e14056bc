import { afterAll, describe, expect, it } from 'bun:test';
import { revokeClient } from '../oauth/clients.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from './relay.ts';
import { bookingData, commitEvent, retireSubscriptions, subscribe } from './test-support.ts';

/**
 * The relay's side of event scopes: a subscription whose creating credential lacks the scope an event's data needs
 * (made before creating one checked it), or whose credential was revoked, is not sent that event; the health view
 * says so.
 */
const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

const URL = 'https://pms.example.com/hooks/qc';
const EVENTS = ['booking.created', 'inventory.push.completed'];

/** Commits a booking and an inventory event on the live property, relays them: deliveries per subscription and type. */
async function relayedTypes(...subscriptions: string[]): Promise<string[][]> {
  const booking = await commitEvent(t.deps, {
    type: 'booking.created',
    customerId: customer.customerId,
    propertyId: customer.live.id,
    data: bookingData(1),
  });
  const push = await commitEvent(t.deps, {
    type: 'inventory.push.completed',
    customerId: customer.customerId,
    propertyId: customer.live.id,
  });
  for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
  const answer: string[][] = [];
  for (const id of subscriptions) {
    const rows = await t.deps.db.sql<{ event_type: string }>`
      select d.event_type from deliveries d join subscriptions s on s.id = d.subscription_id
      where s.external_id = ${id} and d.outbox_event_id = any(${[booking.id, push.id]}::bigint[]) order by d.id`;
    answer.push(rows.map((r) => r.event_type));
  }
  return answer;
}

/** A subscription to EVENTS of the live property made by `token`, booking events stored as before the rule. */
async function subscriptionOf(token: string): Promise<string> {
  const made = await subscribe(t, token, {
    url: URL,
    event: 'inventory.push.completed',
    property_ids: [customer.live.external_id],
  });
  await t.deps.db.sql`update subscriptions set event_types = ${EVENTS}::text[] where external_id = ${made.id}`;
  return made.id;
}

async function withheld(id: string) {
  const res = await t.request('GET', '/v1/qc/health/webhooks', { token: customer.token });
  expect(res.status).toBe(200);
  return res.body.data.subscriptions.find((s: { id: string }) => s.id === id)?.withheld;
}

describe('relay of booking events by the creating credential’s scopes', () => {
  it('withholds booking events from a subscription whose credential lacks bookings.read, and sends the rest', async () => {
    const narrow = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'inventory.read'],
      account_scoped: true,
    });
    const reader = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'inventory.read', 'bookings.read'],
      account_scoped: true,
    });
    const withoutScope = await subscriptionOf(narrow.token);
    const withScope = await subscriptionOf(reader.token);
    expect(await relayedTypes(withoutScope, withScope)).toEqual([['inventory.push.completed'], EVENTS]);
    expect(await withheld(withoutScope)).toEqual([
      { event_type: 'booking.created', scope: 'bookings.read', reason: 'insufficient_scope' },
    ]);
    expect(await withheld(withScope)).toEqual([]);
  });

  it('withholds every scoped event once the creating credential is revoked, and says so in the health view', async () => {
    const reader = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'inventory.read', 'bookings.read'],
      account_scoped: true,
    });
    const id = await subscriptionOf(reader.token);
    expect(await relayedTypes(id)).toEqual([EVENTS]);
    await revokeClient(t.deps.db, reader.client_id);
    expect(await relayedTypes(id)).toEqual([[]]);
    expect(await withheld(id)).toEqual([
      { event_type: 'booking.created', scope: 'bookings.read', reason: 'credential_revoked' },
      { event_type: 'inventory.push.completed', scope: 'inventory.read', reason: 'credential_revoked' },
    ]);
  });

  it('withholds inventory events from a subscription whose credential lacks inventory.read (made before the rule)', async () => {
    const writer = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'inventory.read', 'inventory.write', 'bookings.read'],
      account_scoped: true,
    });
    const id = await subscriptionOf(writer.token);
    // As a credential that held only inventory.write could subscribe before inventory events needed inventory.read.
    await t.deps.db
      .sql`update api_clients set scopes = array['subscriptions.manage', 'inventory.write', 'bookings.read']
      where client_id = ${writer.client_id}`;
    expect(await relayedTypes(id)).toEqual([['booking.created']]);
    expect(await withheld(id)).toEqual([
      { event_type: 'inventory.push.completed', scope: 'inventory.read', reason: 'insufficient_scope' },
    ]);
  });
});
