import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import postgres from 'postgres';
import { formatDay, todayIn } from '../server/core/days.ts';
import { addRoomType, type Ref } from '../server/inventory/test-fixtures.ts';
import { insertProperty } from '../server/properties/insert-property.ts';
import { EMBEDDED, startTestApp, type TestApp } from '../server/testing/harness.ts';
import { type PropertyActors, TURNS_PER_CUSTOMER } from './property-actors.ts';

/**
 * Issue 25: one customer pushing full syncs for many properties at once took every pool connection (each
 * actor turn holds one), and another customer's single push waited behind the storm, past the statement bound
 * (503). A customer now runs at most TURNS_PER_CUSTOMER turns at once; the rest queue per property in arrival
 * order, and the others' pushes go through. The storm's turns are held deterministically: a separate session
 * holds the advisory locks of the storming customer's properties, so its turns wait inside their transactions,
 * each on a pooled connection, exactly as slow turns would.
 */
let t: TestApp;
const STORM_PROPERTIES = 12;
const LOCK_NAMESPACE = 7210;

interface Tenant {
  token: string;
  properties: { id: number; external_id: string; room: Ref }[];
}

async function tenant(properties: number): Promise<Tenant> {
  const [customer] = await t.deps.db.sql<{ id: number }>`
    insert into customers (name) values (${`fairness-${crypto.randomUUID()}`}) returning id`;
  const id = customer?.id as number;
  const rows: Tenant['properties'] = [];
  for (let i = 0; i < properties; i++) {
    const p = await insertProperty(t.deps.db, {
      customerId: id,
      name: `Fair ${i}`,
      currency: 'EUR',
      timezone: 'UTC',
      mode: 'live',
    });
    rows.push({ id: p.id, external_id: p.external_id, room: await addRoomType(t.deps.db, p.id) });
  }
  const client = await t.client({
    customer_id: id,
    scopes: ['inventory.write', 'inventory.read'],
    account_scoped: true,
  });
  return { token: client.token, properties: rows };
}

function push(who: Tenant, index: number, availability: number) {
  const property = who.properties[index] as Tenant['properties'][number];
  const day = formatDay(todayIn('UTC', t.clock.now()) + 10);
  return t.request('POST', `/v1/qc/properties/${property.external_id}/inventory/availability`, {
    token: who.token,
    body: { values: [{ room_type_id: property.room.external_id, date_from: day, date_to: day, availability }] },
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await Bun.sleep(5);
}

beforeAll(async () => {
  // The shared test pool has 8 connections: twelve held turns of one customer would take them all.
  t = await startTestApp();
});
afterAll(() => t.close());

// Holds a storm of turns, each a transaction on its own connection: the embedded engine has one connection.
describe.skipIf(EMBEDDED)('one customer per process never takes every connection', () => {
  it("answers another customer's push while a storm of one customer's turns is held", async () => {
    const stormer = await tenant(STORM_PROPERTIES);
    const other = await tenant(1);
    const actors = t.deps.actors as PropertyActors;
    const customerOf = async (who: Tenant) =>
      (
        await t.deps.db.sql<{
          customer_id: number;
        }>`select customer_id from properties where id = ${who.properties[0]?.id as number}`
      )[0]?.customer_id as number;
    const stormCustomer = await customerOf(stormer);
    const holder = postgres(process.env.DATABASE_URL as string, { max: 1, onnotice: () => {} });
    try {
      await holder
        .begin(async (sql) => {
          for (const p of stormer.properties)
            await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, ${p.id}::int)`;
          const storm = stormer.properties.map((_, i) => push(stormer, i, 3));
          await until(() => actors.running(stormCustomer) >= TURNS_PER_CUSTOMER && actors.size >= STORM_PROPERTIES);
          const single = await push(other, 0, 7);
          expect(single.status).toBe(202);
          // Still held: the storm has not moved past its bound.
          expect(actors.running(stormCustomer)).toBe(TURNS_PER_CUSTOMER);
          // Released when this transaction ends; every queued turn then runs.
          return storm;
        })
        .then(async (storm) => {
          const answers = await Promise.all(storm);
          expect(answers.map((a) => a.status)).toEqual(Array(STORM_PROPERTIES).fill(202));
        });
    } finally {
      await holder.end();
    }
    expect(actors.running(stormCustomer)).toBe(0);
  });
});
