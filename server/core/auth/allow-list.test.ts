import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { rowsRead } from '../../testing/rows-read.ts';
import { authenticate } from './authenticate.ts';

/**
 * The allow-list a credential is resolved with (authenticate.ts): a narrowed one reads its own properties by id, an
 * account-scoped one the customer's; both keep only active properties outside paused groups, of their customer.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('the allow-list of a credential', () => {
  it('reads only the properties a narrowed credential names, however many the account holds', async () => {
    const db = t.deps.db;
    const [group] = await db.sql<{ id: number }>`
      insert into property_groups (customer_id, name, paused) values (${demo.customer_id}, 'Paused', true) returning id`;
    const added = await db.sql<{ id: number; external_id: string }>`
      insert into properties (customer_id, name, currency, timezone, mode)
      select ${demo.customer_id}, 'Inn ' || i, 'EUR', 'UTC', 'live' from generate_series(1, 300) i
      returning id, external_id`;
    const [active, disabled, paused, other] = added;
    await db.sql`update properties set status = 'disabled' where id = ${disabled?.id}`;
    await db.sql`update properties set group_id = ${group?.id} where id = ${paused?.id}`;
    const narrowed = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [active, disabled, paused].map((p) => p?.external_id as string),
    });
    const scoped = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
    // Another customer's property, granted by a row written past the API's checks: it never reaches the allow-list.
    const stranger = await t.demo();
    const [foreign] = await db.sql<{ id: number }>`
      select id from properties where external_id = ${stranger.properties[0]?.id as string}`;
    await db.sql`
      update api_clients set property_ids = property_ids || ${foreign?.id}::bigint where client_id = ${narrowed.client_id}`;

    const allowList = (token: string) =>
      db.tx(async (tx) => {
        // What the query allows, not what a small test table's costs pick: a table of a few hundred rows (a fresh
        // database, or one never analyzed: autovacuum is off on the test server) is cheaper to scan whole than to
        // probe by id, and the pin failed on that guess, not on the query. The sibling pin of the property list
        // (properties.read.test.ts) turns sorting off for the same reason.
        await tx.sql`select set_config('enable_seqscan', 'off', true)`;
        let ids: number[] = [];
        // On this transaction's handle: a principal cache of its own, which looks the client up every time.
        const read = await rowsRead(tx, 'properties', async () => {
          ids = [...(await authenticate({ ...t.deps, db: tx }, `Bearer ${token}`)).propertyIds];
        });
        return { ids: ids.sort((a, b) => a - b), read };
      });

    const mine = await allowList(narrowed.token);
    expect(mine.ids).toEqual([active?.id as number]);
    // Its 4 ids probed, not the account's 302 properties filtered by id.
    expect(mine.read).toBeLessThanOrEqual(4);
    const account = await allowList(scoped.token);
    const expected = await db.sql<{ id: number }>`
      select id from properties where customer_id = ${demo.customer_id} and status = 'active'
        and (group_id is null or group_id <> ${group?.id}) order by id`;
    expect(account.ids).toEqual(expected.map((r) => r.id));
    expect(account.ids).toContain(other?.id as number);
    expect(account.read).toBeGreaterThanOrEqual(expected.length);
  });
});
