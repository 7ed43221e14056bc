import { afterAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { startWebhooks } from './dispatcher.ts';
import { RELAY_BATCH, RELAY_FIRST_BATCH, relayBatch } from './relay.ts';
import { retireSubscriptions } from './test-support.ts';

/**
 * Event ids and delivery ids are time-ordered UUIDs (migration 1140): each lands on the rightmost leaf of
 * its unique index, as a bigserial does, where a random UUID touched a leaf of its own per row, a cost that
 * grew with the history kept.
 */
const t = testAppPerFile();
const customers: number[] = [];
// The suite shares one database: deliveries left due here would be attempted by other files' dispatchers.
afterAll(async () => {
  for (const customer of customers) await retireSubscriptions(t.deps, customer);
});

/** The UUID's version digit and its first 48 bits (Unix milliseconds for version 7). */
const version = (id: string) => id[14];
const millis = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

async function customerWithSubscription(name: string): Promise<number> {
  const db = t.deps.db;
  const [customer] = await db.sql<{ id: number }>`insert into customers (name) values (${name}) returning id`;
  customers.push(customer?.id as number);
  const [client] = await db.sql<{ id: number }>`
    insert into api_clients (client_id, kind, customer_id, secret_hash, scopes)
    values (${crypto.randomUUID()}, 'personal', ${customer?.id}, ${crypto.randomUUID()}, '{}') returning id`;
  await db.sql`
    insert into subscriptions (customer_id, created_by, url, event_types, secret, created_at, updated_at)
    values (${customer?.id}, ${client?.id}, 'https://hooks.example.invalid/relay', '{subscription.created}', 's', now(), now())`;
  return customer?.id as number;
}

describe('relayNow', () => {
  it('relays a backlog larger than its first batches whole, in one call', async () => {
    const customer = await customerWithSubscription('relay backlog');
    const backlog = RELAY_FIRST_BATCH * 5 + RELAY_BATCH + 7;
    await t.deps.db.sql`
      insert into outbox_events (type, customer_id, data)
      select 'subscription.created', ${customer}, '{}' from generate_series(1, ${backlog})`;
    const webhooks = await startWebhooks(t.deps, { autorun: false });
    try {
      expect(await webhooks.relayNow()).toBeGreaterThanOrEqual(backlog);
    } finally {
      await webhooks.stop();
    }
    const [relayed] = await t.deps.db.sql<{ events: number; deliveries: number }>`
      select count(*)::int as events, count(d.id)::int as deliveries
      from outbox_events e left join deliveries d on d.outbox_event_id = e.id
      where e.customer_id = ${customer} and e.relayed_at is not null`;
    expect(relayed).toEqual({ events: backlog, deliveries: backlog });
  });
});

describe('relayBatch', () => {
  it('gives events and their deliveries version 7 ids, ascending with creation time', async () => {
    const db = t.deps.db;
    const customer = await customerWithSubscription('relay ids');
    const before = Date.now();
    for (let i = 0; i < 3; i++) {
      await db.sql`insert into outbox_events (type, customer_id, data) values ('subscription.created', ${customer}, '{}')`;
      await Bun.sleep(3);
    }
    // Other files' events may be waiting too: relay until this customer's are.
    for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
    const rows = await db.sql<{ event_id: string; external_id: string }>`
      select e.event_id::text, d.external_id::text from outbox_events e join deliveries d on d.outbox_event_id = e.id
      where e.customer_id = ${customer} order by e.id`;
    expect(rows.length).toBe(3);
    const events = rows.map((r) => r.event_id);
    const deliveries = rows.map((r) => r.external_id);
    expect([...events, ...deliveries].map(version)).toEqual(['7', '7', '7', '7', '7', '7']);
    // Events made 3 ms apart sort in creation order; deliveries made by one statement share its millisecond.
    expect([...events].sort()).toEqual(events);
    expect(millis(events[0] as string)).toBeGreaterThanOrEqual(before);
    expect(millis(events[2] as string)).toBeGreaterThan(millis(events[0] as string));
    for (const id of deliveries) {
      expect(millis(id)).toBeGreaterThanOrEqual(millis(events[2] as string));
      expect(millis(id)).toBeLessThanOrEqual(Date.now());
    }
  });
});
