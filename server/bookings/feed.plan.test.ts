import { describe, expect, it } from 'bun:test';
import { type Db, toQuery } from '../core/db/db.ts';
import { advanceWatermark, feedHealth, feedPage } from './feed.ts';
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

/** A Db that answers every statement as usual and keeps its generic plan (EXPLAIN EXECUTE of a PREPARE). */
function planRecorder(tx: Db, plans: unknown[]): Db {
  let n = 0;
  const record = async (text: string, params: unknown[]) => {
    // Settings (feed-account.ts sets its statements' plan mode and turns JIT off) are not the plans pinned here.
    if (/^\s*(set |select set_config\()/i.test(text)) return;
    const name = `feed_plan_${++n}`;
    await tx.query(`prepare ${name} as ${text}`);
    const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(
      `explain (format json) execute ${name}${params.length ? `(${params.map(literal).join(', ')})` : ''}`,
    );
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
  Plans?: PlanNode[];
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

  it("reads an account-scoped consumer's page in one primary-key scan whatever the number of properties, probing properties and acks per revision", async () => {
    const plans: unknown[] = [];
    const rollback = new Error('rollback');
    await t.deps.db
      .tx(async (tx) => {
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
});
