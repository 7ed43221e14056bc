import { describe, expect, it } from 'bun:test';
import { type Db, toQuery } from '../core/db/db.ts';
import { ackRevision, advanceWatermark, feedHealth, feedPage } from './feed.ts';
import { PER_PROPERTY_UP_TO } from './feed-account.ts';
import { bookingTest } from './test-fixtures.ts';

/**
 * The feed's statements under the plan postgres.js's prepared statements settle on (the generic plan),
 * on a table whose statistics say there are only two properties: the shape in which the planner liked to
 * walk the primary key filtering on property_id (feed.ts, ONE_PROPERTY_IN_ID_ORDER). Everything happens in
 * one transaction that is rolled back, statistics included, so the shared test database is left as it was.
 */
const { t, fx } = bookingTest();

/** A SQL literal for the parameters these statements take (ids, id lists, dates). */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (Array.isArray(value)) return `'{${value.join(',')}}'`;
  if (value instanceof Date) return `'${value.toISOString()}'`;
  throw new Error(`no literal for ${typeof value}`);
}

/**
 * A Db that answers every statement as usual and keeps its generic plan (EXPLAIN EXECUTE of a PREPARE); `analyze`:
 * the plan as run, with its row counts, under a savepoint rolled back (a write then happens once, for real).
 */
function planRecorder(tx: Db, plans: unknown[], analyze = false): Db {
  let n = 0;
  const record = async (text: string, params: unknown[]) => {
    // Settings (feed-account.ts sets its statements' plan mode and turns JIT off) are not the plans pinned here.
    if (/^\s*(set |select set_config\()/i.test(text)) return;
    const name = `feed_plan_${++n}`;
    await tx.query(`prepare ${name} as ${text}`);
    if (analyze) await tx.query('savepoint feed_plan');
    const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(
      `explain (${analyze ? 'analyze, ' : ''}format json) execute ${name}${params.length ? `(${params.map(literal).join(', ')})` : ''}`,
    );
    if (analyze) await tx.query('rollback to savepoint feed_plan');
    plans.push(row?.['QUERY PLAN']);
    await tx.query(`deallocate ${name}`);
  };
  const sql = async <T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> => {
    await record(...toQuery(strings, values));
    return tx.sql<T>(strings, ...values);
  };
  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    await record(text, params);
    return tx.query<T>(text, params);
  };
  // Already inside the test's transaction: a statement group that opens its own runs in it.
  const recorder = { ...tx, sql, query } as Db;
  recorder.tx = (<T>(fn: (inner: Db) => Promise<T>) => fn(recorder)) as Db['tx'];
  return recorder;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Filter?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows an analyzed plan read from `relation`: kept or filtered out, in every loop (EXPLAIN gives per loop). */
function rowsRead(relation: string, plan: unknown): number {
  const walk = (node: PlanNode): number =>
    (node['Relation Name'] === relation
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 0)
      : 0) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return (plan as { Plan: PlanNode }[]).reduce((sum, root) => sum + walk(root.Plan), 0);
}

/** Every scan of `relation` in a plan, as "<node type> <index>[ filter ..][ on <index condition>]". */
function scansOf(relation: string, plan: unknown): string[] {
  const scans: string[] = [];
  const indexes = (node: PlanNode): string[] => [
    ...(node['Index Name'] ? [node['Index Name']] : []),
    ...(node['Node Type'] === 'Bitmap Heap Scan' ? (node.Plans ?? []).flatMap(indexes) : []),
  ];
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] === relation)
      scans.push(
        `${node['Node Type']} ${indexes(node).join(' ')}${node.Filter ? ` filter ${node.Filter}` : ''}${node['Index Cond'] ? ` on ${node['Index Cond']}` : ''}`,
      );
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const root of plan as { Plan: PlanNode }[]) walk(root.Plan);
  return scans;
}

/**
 * The state of a database migrated with more than 100000 revisions while `npm run revisions:customer-backfill` has
 * not ended (migration 1260): the account feed reads as it did before every revision carried its customer.
 */
async function backfillRunning(tx: Db) {
  await tx.sql`update booking_revision_customer_fill set done = false`;
}

interface Account {
  customerId: number;
  propertyIds: number[];
}

/**
 * What the account tests do in their transaction, on the demo customer's account (its properties as they stand):
 * consumers, revisions, the account's own, a recorded poll.
 */
async function accountFeed(tx: Db, limit: number) {
  const account: Account = {
    customerId: fx.demo.customer_id,
    propertyIds: (
      await tx.sql<{ id: number }>`select id from properties where customer_id = ${fx.demo.customer_id}`
    ).map((r) => r.id),
  };
  /** The page of `consumerId` and the rows its statements read from booking_revisions. */
  const poll = async (consumerId: number) => {
    const plans: unknown[] = [];
    const page = await feedPage(planRecorder(tx, plans, true), {
      consumerId,
      propertyIds: account.propertyIds,
      since: 0,
      limit,
      account,
    });
    return {
      ids: page.booking_revisions.map((r) => r.id),
      read: plans.reduce<number>((sum, plan) => sum + rowsRead('booking_revisions', plan), 0),
      plans,
    };
  };
  return {
    account,
    /** A new account-scoped consumer of the account. */
    consumer: async (name: string) =>
      (
        await tx.sql<{ id: number }>`
          insert into api_clients (client_id, kind, customer_id, name, secret_hash, scopes, account_scoped)
          values (${crypto.randomUUID()}, 'personal', ${account.customerId}, ${name}, ${crypto.randomUUID()}, '{bookings.read}', true)
          returning id`
      )[0]?.id as number,
    /** `n` revisions spread over `propertyIds`, a booking each, in id order. */
    revisionsOf: async (propertyIds: number[], n: number) => {
      const run = crypto.randomUUID();
      await tx.sql`
        insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
        select (${propertyIds}::bigint[])[1 + i % ${propertyIds.length}::int], ${run} || '-' || i, 'BDC', 'confirmed',
          date '2027-03-01', date '2027-03-04', 'EUR', 450
        from generate_series(1, ${n}::int) i`;
      await tx.sql`
        insert into booking_revisions (booking_id, property_id, revision_type, payload)
        select b.id, b.property_id, 'created', '{}'::jsonb from bookings b
        where b.external_booking_id like ${`${run}-%`} order by b.id`;
    },
    /** The account's revisions in id order. */
    own: () =>
      tx.sql<{ id: number; property_id: number }>`
        select r.id, r.property_id from booking_revisions r where r.property_id = any(${account.propertyIds}::bigint[])
        order by r.id`,
    poll,
    /** The consumer's position is `revisionId` and its page is empty. */
    expectCaughtUp: async (consumerId: number, revisionId: number) => {
      const [position] = await tx.sql<{ acked_through: number }>`
        select acked_through from booking_feed_positions where consumer_id = ${consumerId}`;
      expect(position?.acked_through).toBe(revisionId);
      expect((await poll(consumerId)).ids).toEqual([]);
    },
  };
}

describe('feed statements under a generic plan', () => {
  it('read one property through booking_revisions_property and probe acks per revision, never walking the primary key or all acks', async () => {
    const plans: unknown[] = [];
    const rollback = new Error('rollback');
    await t.deps.db
      .tx(async (tx) => {
        // 3000 revisions on the live property, none on the shadow one, and statistics that know of two properties.
        await tx.sql`
          insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
          select ${fx.propertyId}, 'plan-' || i, 'BDC', 'confirmed', date '2027-03-01', date '2027-03-04', 'EUR', 450
          from generate_series(1, 300) i`;
        await tx.sql`
          insert into booking_revisions (booking_id, property_id, revision_type, payload)
          select b.id, b.property_id, 'modified', '{}'::jsonb from bookings b cross join generate_series(1, 10)
          where b.external_booking_id like 'plan-%'`;
        await tx.query('alter table booking_revisions alter column property_id set (n_distinct = 2)');
        await tx.query('analyze booking_revisions');
        // The consumer acks them all after the acks' statistics were taken: the estimate says it has none.
        await tx.query('analyze booking_revision_acks');
        const [client] = await tx.sql<{ id: number }>`
          select id from api_clients where customer_id = ${fx.demo.customer_id} order by id limit 1`;
        const consumer = client?.id as number;
        await tx.sql`
          insert into booking_revision_acks (consumer_id, revision_id)
          select ${consumer}, r.id from booking_revisions r where r.property_id = ${fx.propertyId}`;
        await tx.query('set local plan_cache_mode = force_generic_plan');
        const [shadow] = await tx.sql<{ id: number }>`select id from properties where external_id = ${fx.shadow}`;
        const recorder = planRecorder(tx, plans);
        await feedPage(recorder, {
          consumerId: consumer,
          propertyIds: [fx.propertyId, shadow?.id as number],
          since: 0,
          limit: 100,
        });
        await advanceWatermark(recorder, consumer, fx.propertyId);
        await feedHealth(recorder, consumer, shadow?.id as number, new Date());
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
    // feedPage; advanceWatermark's two reads and its upsert (everything is acked); feedHealth.
    expect(plans.length).toBe(5);
    const scans = plans.flatMap((plan) => scansOf('booking_revisions', plan));
    expect(scans.length).toBeGreaterThanOrEqual(4);
    expect(scans.filter((scan) => !scan.includes('booking_revisions_property'))).toEqual([]);
    // "Not acked" is a probe of one (consumer, revision) key per revision, never a scan of the consumer's acks.
    const ackScans = plans.flatMap((plan) => scansOf('booking_revision_acks', plan));
    expect(ackScans.length).toBe(3);
    expect(ackScans.filter((scan) => !/revision_id = r\.id/.test(scan))).toEqual([]);
  });

  it("reads an account-scoped consumer's page in one primary-key scan whatever the number of properties, probing properties and acks per revision, while revisions without their customer remain", async () => {
    const plans: unknown[] = [];
    const rollback = new Error('rollback');
    await t.deps.db
      .tx(async (tx) => {
        await backfillRunning(tx);
        // 2000 more properties in the account, 3000 revisions spread over 300 of them, and statistics.
        const properties = (
          await tx.sql<{ id: number }>`
            insert into properties (customer_id, name, currency, timezone, mode)
            select ${fx.demo.customer_id}, 'Plan ' || i, 'EUR', 'UTC', 'live' from generate_series(1, 2000) i returning id`
        ).map((r) => r.id);
        await tx.sql`
          insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
          select (${properties}::bigint[])[1 + i % 300], 'plan-account-' || i, 'BDC', 'confirmed', date '2027-03-01', date '2027-03-04', 'EUR', 450
          from generate_series(1, 300) i`;
        await tx.sql`
          insert into booking_revisions (booking_id, property_id, revision_type, payload)
          select b.id, b.property_id, 'modified', '{}'::jsonb from bookings b cross join generate_series(1, 10)
          where b.external_booking_id like 'plan-account-%'`;
        await tx.query('analyze booking_revisions');
        await tx.query('analyze properties');
        const [client] = await tx.sql<{ id: number }>`
          select id from api_clients where customer_id = ${fx.demo.customer_id} order by id limit 1`;
        const consumer = client?.id as number;
        await tx.query('set local plan_cache_mode = force_generic_plan');
        const recorder = planRecorder(tx, plans);
        const account = { customerId: fx.demo.customer_id };
        const page = await feedPage(recorder, {
          consumerId: consumer,
          propertyIds: [fx.propertyId, ...properties],
          since: 0,
          limit: 100,
          account,
        });
        expect(page.booking_revisions.length).toBe(100);
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
    // The page is the last statement; a consumer without a position under this allow-list first has one built
    // from its watermarks (feed-account.ts, rebuildPosition), which is not the page.
    const page = plans.at(-1);
    expect(plans.length).toBeLessThanOrEqual(2);
    expect(scansOf('booking_revisions', page)).toEqual([expect.stringMatching(/^Index Scan booking_revisions_pkey/)]);
    // Membership and the property's external id: both probes of one property by its key, per revision.
    const propertyScans = scansOf('properties', page);
    expect(propertyScans.length).toBeGreaterThanOrEqual(1);
    expect(
      propertyScans.filter((scan) => !/^Index Scan properties_pkey .*on \(id = r\.property_id\)/.test(scan)),
    ).toEqual([]);
    expect(scansOf('booking_revision_acks', page)).toEqual([expect.stringMatching(/revision_id = r\.id/)]);
    // Acked by watermark: a probe of the consumer's watermark on the revision's property, per revision.
    expect(scansOf('booking_feed_watermarks', page)).toEqual([expect.stringMatching(/property_id = r\.property_id/)]);
  });
  it("reads a small account's polls and acks in rows bounded by its page and its own revisions, whatever other customers hold, while revisions without their customer remain", async () => {
    const rollback = new Error('rollback');
    const limit = 100;
    await t.deps.db
      .tx(async (tx) => {
        await backfillRunning(tx);
        const { account, consumer, revisionsOf, own, poll, expectCaughtUp } = await accountFeed(tx, limit);
        // A caught-up consumer: every revision of the account acked through the API's own path (in a recorder, which
        // runs a statement group that opens a transaction of its own inside this one).
        const caughtUp = await consumer('caught up');
        for (const revision of await own())
          await ackRevision(planRecorder(tx, []), caughtUp, revision, new Date(), account);

        // Another customer, whose revisions come after all of the account's: first 1000, then 5000 more.
        const [other] = await tx.sql<{ id: number }>`
          with c as (insert into customers (name) values ('Other') returning id)
          insert into properties (customer_id, name, currency, timezone, mode)
          select c.id, 'Other Inn', 'EUR', 'UTC', 'live' from c returning id`;
        await tx.query('set local plan_cache_mode = force_generic_plan');

        await revisionsOf([other?.id as number], 1000);
        const before = await poll(caughtUp);
        await revisionsOf([other?.id as number], 5000);
        const after = await poll(caughtUp);
        expect(before.ids).toEqual([]);
        expect(after.ids).toEqual([]);
        // The span after the consumer's position (twice the page), then a probe per property: the same rows with
        // 1000 and with 6000 other revisions after it. Scanning to the end read every one of them.
        expect(after.read).toBe(before.read);
        expect(after.read).toBeLessThanOrEqual(2 * limit + account.propertyIds.length);
        // The span in primary-key order up to its end; past it, each property through booking_revisions_property.
        expect(scansOf('booking_revisions', after.plans[0])).toEqual([
          expect.stringMatching(/^Index Scan booking_revisions_pkey .*on \(\(id > GREATEST\(.*\)\) AND \(id <= /),
        ]);
        expect(scansOf('booking_revisions', after.plans.at(-1))).toEqual([
          expect.stringMatching(/^Index Scan booking_revisions_property /),
        ]);

        // A revision of the account behind the others' 6000, and 1000 more after it.
        await revisionsOf([account.propertyIds[0] as number], 1);
        const latest = (await own()).at(-1) as { id: number; property_id: number };
        await revisionsOf([other?.id as number], 1000);
        const next = await poll(caughtUp);
        expect(next.ids).toEqual([latest.id]);
        expect(next.read).toBeLessThanOrEqual(2 * limit + account.propertyIds.length + 1);
        // A new consumer: every revision of the account, none of the others' 7000 read past the span.
        const all = (await own()).map((r) => r.id);
        const fresh = await poll(await consumer('new'));
        expect(fresh.ids).toEqual(all);
        expect(fresh.read).toBeLessThanOrEqual(2 * limit + all.length + account.propertyIds.length);

        // Its ack moves the position per property: a probe of each, never a walk past the others' revisions.
        const plans: unknown[] = [];
        await ackRevision(planRecorder(tx, plans, true), caughtUp, latest, new Date(), account);
        expect(plans.reduce<number>((sum, plan) => sum + rowsRead('booking_revisions', plan), 0)).toBeLessThanOrEqual(
          4 * account.propertyIds.length + 4,
        );
        await expectCaughtUp(caughtUp, latest.id);
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
  });

  it("reads an account's polls and acks in its own range of (customer_id, id), whatever its size and whatever a larger customer holds", async () => {
    const rollback = new Error('rollback');
    const limit = 100;
    await t.deps.db
      .tx(async (tx) => {
        // The account: the demo customer's properties and 200 more, a revision on every fourth of them.
        const added = (
          await tx.sql<{ id: number }>`
            insert into properties (customer_id, name, currency, timezone, mode)
            select ${fx.demo.customer_id}, 'Account ' || i, 'EUR', 'UTC', 'live' from generate_series(1, 200) i
            returning id`
        ).map((r) => r.id);
        const { account, consumer, revisionsOf, own, poll, expectCaughtUp } = await accountFeed(tx, limit);
        expect(account.propertyIds.length).toBeGreaterThan(PER_PROPERTY_UP_TO + 50);
        // A larger customer: 400 properties.
        const others = (
          await tx.sql<{ id: number }>`
            with c as (insert into customers (name) values ('Larger') returning id)
            insert into properties (customer_id, name, currency, timezone, mode)
            select c.id, 'Larger ' || i, 'EUR', 'UTC', 'live' from c, generate_series(1, 400) i returning id`
        ).map((r) => r.id);
        await revisionsOf(
          added.filter((_, i) => i % 4 === 0),
          50,
        );
        const caughtUp = await consumer('caught up');
        // Acked through the API's own path, in a recorder (which runs a statement group's transaction in this one).
        for (const revision of await own())
          await ackRevision(planRecorder(tx, []), caughtUp, revision, new Date(), account);
        await tx.query('analyze booking_revisions');
        await tx.query('set local plan_cache_mode = force_generic_plan');

        await revisionsOf(others, 1000);
        const before = await poll(caughtUp);
        await revisionsOf(others, 5000);
        const after = await poll(caughtUp);
        expect(before.ids).toEqual([]);
        expect(after.ids).toEqual([]);
        // One range of the account's revisions after its position, which holds none: nothing of the others' 1000
        // or 6000 read (scanning in id order read them all; per property, a probe of each of the 200).
        expect(after.read).toBe(before.read);
        expect(after.read).toBe(0);
        expect(after.plans.flatMap((plan) => scansOf('booking_revisions', plan))).toEqual([
          expect.stringMatching(
            /^Index Scan booking_revisions_customer .*on \(\(customer_id = \$1\) AND \(id > GREATEST\(\$2, \$3\)\)\)$/,
          ),
        ]);

        // A revision of the account behind the others' 6000, and 1000 more after it: read alone.
        await revisionsOf([added[1] as number], 1);
        const latest = (await own()).at(-1) as { id: number; property_id: number };
        await revisionsOf(others, 1000);
        const next = await poll(caughtUp);
        expect(next.ids).toEqual([latest.id]);
        expect(next.read).toBe(1);
        // A new consumer: the account's first page, read and nothing else.
        const all = (await own()).map((r) => r.id);
        const fresh = await poll(await consumer('new'));
        expect(fresh.ids).toEqual(all.slice(0, limit));
        expect(fresh.read).toBe(Math.min(limit, all.length));

        // Its ack looks ahead in the account's range: the revision acked, nothing past it, none of the others'.
        const plans: unknown[] = [];
        await ackRevision(planRecorder(tx, plans, true), caughtUp, latest, new Date(), account);
        // The watermark reads the acked property's revisions (one here), twice; the look-ahead, written twice, the
        // account's revisions after the position (this one), twice each: never the others', never the primary key.
        const ackScans = plans.flatMap((plan) => scansOf('booking_revisions', plan));
        expect(
          ackScans.filter((scan) => !/^Index (Only )?Scan booking_revisions_(customer|property) /.test(scan)),
        ).toEqual([]);
        expect(plans.reduce<number>((sum, plan) => sum + rowsRead('booking_revisions', plan), 0)).toBeLessThanOrEqual(
          2 * 1 + 4 * 1,
        );
        await expectCaughtUp(caughtUp, latest.id);
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
  });
});
