import { describe, expect, it } from 'bun:test';
import { authenticate } from '../core/auth/authenticate.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { rowsRead } from '../testing/rows-read.ts';
import { propertiesPage } from './service.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('GET /properties', () => {
  it('lists the allowed properties with integer meta, paged', async () => {
    const all = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect(all.status).toBe(200);
    expect(all.body.data.meta).toEqual({ total: 2, page: 1, per_page: 200, last_page: 1 });
    const second = await t.request('GET', '/v1/qc/properties', {
      token: demo.personal_token,
      query: { per_page: 1, page: 2 },
    });
    expect(second.body.data.meta).toEqual({ total: 2, page: 2, per_page: 1, last_page: 2 });
    expect(second.body.data.properties.map((p: { id: string }) => p.id)).toEqual([demo.properties[1]?.id]);
  });

  it('keeps last_page at 1 for an empty allow-list', async () => {
    const { token } = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [] });
    const res = await t.request('GET', '/v1/qc/properties', { token });
    expect(res.body.data).toEqual({ properties: [], meta: { total: 0, page: 1, per_page: 200, last_page: 1 } });
  });

  it('shows one property alike by external id and by partner code', async () => {
    const [first] = demo.properties;
    const byId = await t.request('GET', `/v1/qc/properties/${first?.id}`, { token: demo.personal_token });
    const byCode = await t.request('GET', `/v1/qc/properties/${first?.partner_code}`, { token: demo.personal_token });
    expect(byId.status).toBe(200);
    expect(byCode.body).toEqual(byId.body);
    expect(byId.body.data.id).toBe(byId.body.data.external_property_id);
  });
  it("pages an account-scoped credential's properties by customer: the answer its ids give, a page's rows read", async () => {
    const account = await t.demo();
    // 300 more properties, created at times out of id order; every 10th disabled, every 7th in a paused group.
    const db = t.deps.db;
    const [group] = await db.sql<{ id: number }>`
      insert into property_groups (customer_id, name, paused) values (${account.customer_id}, 'Paused', true) returning id`;
    await db.sql`
      insert into properties (customer_id, name, currency, timezone, mode, status, group_id, created_at)
      select ${account.customer_id}, 'Inn ' || i, 'EUR', 'UTC', 'live', case when i % 10 = 0 then 'disabled' else 'active' end,
        case when i % 7 = 0 then ${group?.id}::bigint end, now() - make_interval(hours => i % 13)
      from generate_series(1, 300) i`;
    const allowed = await db.sql<{ external_id: string }>`
      select p.external_id from properties p left join property_groups g on g.id = p.group_id
      where p.customer_id = ${account.customer_id} and p.status = 'active' and not coalesce(g.paused, false)`;
    // The demo's 2 and 300 new, less the 30 disabled and 42 paused (4 of them both).
    expect(allowed.length).toBe(2 + 300 - 30 - 42 + 4);
    // The same properties by id: the list reads them with `id = any(...)`, the answer to match.
    const byIds = await t.client({
      customer_id: account.customer_id,
      scopes: ['inventory.read'],
      property_ids: allowed.map((p) => p.external_id),
    });
    for (const perPage of [1, 7, 200]) {
      const lastPage = Math.ceil(allowed.length / perPage);
      for (const page of [1, 2, lastPage, lastPage + 1]) {
        const query = { page, per_page: perPage };
        const scoped = await t.request('GET', '/v1/qc/properties', { token: account.personal_token, query });
        const fixed = await t.request('GET', '/v1/qc/properties', { token: byIds.token, query });
        expect(scoped.status).toBe(200);
        expect(scoped.body.data.meta).toEqual({ total: allowed.length, page, per_page: perPage, last_page: lastPage });
        expect(scoped.body.data).toEqual(fixed.body.data);
      }
    }
    // The first page of one can be read as a row or few (the index's first entries, disabled or paused ones skipped),
    // not the account's 302 properties sorted. Which plan PostgreSQL takes depends on its statistics and on the
    // prepared statement's plan cache: a generic plan, or one from statistics of a database holding many customers'
    // test properties, prices this account at the average size and sorts it, which costs as little for a small
    // account. A custom plan without sorting asks what is pinned here: the index and the query allow the walk.
    const principal = await authenticate(t.deps, `Bearer ${account.personal_token}`);
    expect(principal.accountScoped).toBe(true);
    const read = await db.tx(async (tx) => {
      await tx.sql`select set_config('plan_cache_mode', 'force_custom_plan', true), set_config('enable_sort', 'off', true)`;
      return rowsRead(tx, 'properties', () => propertiesPage(tx, principal, 1, 1));
    });
    expect(read).toBeGreaterThanOrEqual(1);
    expect(read).toBeLessThanOrEqual(3);
  });
});
