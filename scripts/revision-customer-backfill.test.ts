import { afterAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { ackRevision, feedPage } from '../server/bookings/feed.ts';
import type { Db } from '../server/core/db/db.ts';
import { migrate, splitStatements } from '../server/core/db/migrate.ts';
import { openPostgres } from '../server/core/db/postgres.ts';
import { backfillRevisionCustomers } from './revision-customer-backfill.ts';

/**
 * Migration 1260 on a database past its threshold (more than 100000 revisions): it adds the column and leaves the
 * rows to `npm run revisions:customer-backfill`, which fills them in batches while the feed serves. On a database of
 * its own, named after the test database and dropped afterwards, migrated up to 1260 first.
 */
// Its own database is made and opened directly: through a transaction pooler (npm run test:pooler) neither works.
const base = process.env.DATABASE_SESSION_URL ?? process.env.DATABASE_URL ?? '';
const MIGRATIONS = join(import.meta.dir, '..', 'server', 'migrations');
const admin = postgres(base.replace(/\/[^/]+$/, '/postgres'), { max: 1, onnotice: () => {} });
const created: string[] = [];

afterAll(async () => {
  for (const name of created) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

/** A database migrated up to 1260 holding 102000 revisions: 150 properties of an account, 10 of another customer's. */
async function beforeRevisionCustomers(): Promise<Db> {
  const name = `${new URL(base).pathname.slice(1)}_rev_${Math.random().toString(36).slice(2, 8)}`;
  await admin.unsafe(`create database ${name}`);
  created.push(name);
  const db = openPostgres(base.replace(/\/[^/]+$/, `/${name}`), { timeoutMs: 60_000 });
  await db.query(
    'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql') && f < '1260')
    .sort()) {
    await db.tx(async (tx) => {
      for (const statement of splitStatements(readFileSync(join(MIGRATIONS, file), 'utf8'))) await tx.query(statement);
      await tx.sql`insert into schema_migrations (name) values (${file})`;
    });
  }
  // 2000 bookings, 51 revisions each, the two customers' interleaved in id order.
  await db.query(`
    insert into customers (name) values ('account'), ('other');
    insert into properties (customer_id, name, currency, timezone, mode)
      select case when g <= 150 then 1 else 2 end, 'P' || g, 'EUR', 'UTC', 'live' from generate_series(1, 160) g;
    insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
      select case when g % 2 = 0 then 1 + g % 150 else 151 + g % 10 end, 'b-' || g, 'BDC', 'confirmed',
        date '2027-03-01', date '2027-03-04', 'EUR', 450 from generate_series(1, 2000) g;
    insert into booking_revisions (booking_id, property_id, revision_type, payload)
      select b.id, b.property_id, 'modified', '{}' from bookings b cross join generate_series(1, 51) v order by v, b.id`);
  return db;
}

/** The account's feed as an account-scoped consumer reads it: its first two pages of 100. */
async function accountFeed(db: Db, consumerId: number, propertyIds: number[]) {
  const page = async (since: number) =>
    (
      await feedPage(db, { consumerId, propertyIds, since, limit: 100, account: { customerId: 1 } })
    ).booking_revisions.map((r) => r.id);
  const first = await page(0);
  return [first, await page(first.at(-1) ?? 0)];
}

describe.skipIf(!base)('revisions:customer-backfill (migration 1260)', () => {
  it('fills every revision with its customer in resumable batches, the account feed answering the same before, during and after', async () => {
    const db = await beforeRevisionCustomers();
    try {
      await migrate(db);
      const state = async () =>
        (
          await db.sql<{ empty: number; wrong: number; done: boolean; index: boolean | null }>`
          select (select count(*)::int from booking_revisions where customer_id is null) as empty,
            (select count(*)::int from booking_revisions r join properties p on p.id = r.property_id
              where r.customer_id <> p.customer_id) as wrong,
            (select done from booking_revision_customer_fill) as done,
            (select indisvalid from pg_index where indexrelid = to_regclass('booking_revisions_customer')) as index`
        )[0];
      // Past the threshold the migration leaves the rows, and the index, to the backfill.
      expect(await state()).toEqual({ empty: 102000, wrong: 0, done: false, index: null });

      const propertyIds = (await db.sql<{ id: number }>`select id from properties where customer_id = 1`).map(
        (r) => r.id,
      );
      const [client] = await db.sql<{ id: number }>`
        insert into api_clients (client_id, kind, customer_id, name, secret_hash, scopes, account_scoped)
        values ('feed', 'personal', 1, 'feed', 'x', '{bookings.read}', true) returning id`;
      const consumer = client?.id as number;
      // The consumer acked a few of the account's first revisions: the page skips them, its position moves.
      const acked = await db.sql<{ id: number; property_id: number }>`
        select r.id, r.property_id from booking_revisions r join properties p on p.id = r.property_id
        where p.customer_id = 1 order by r.id limit 30`;
      for (const revision of acked.filter((_, i) => i % 3 === 0))
        await ackRevision(db, consumer, revision, new Date(), { customerId: 1, propertyIds });
      const before = await accountFeed(db, consumer, propertyIds);
      expect(before.map((ids) => ids.length)).toEqual([100, 100]);

      // Interrupted after its second batch (an operator's ^C): what it filled is kept, the feed answers the same.
      let batches = 0;
      const interrupted = backfillRevisionCustomers(db, {
        batch: 25000,
        log: () => {
          if (++batches === 2) throw new Error('interrupted');
        },
      });
      await expect(interrupted).rejects.toThrow('interrupted');
      expect(await state()).toEqual({ empty: 52000, wrong: 0, done: false, index: null });
      expect(await accountFeed(db, consumer, propertyIds)).toEqual(before);
      // The previous release, still serving during a rolling deploy, appends a revision without naming its customer.
      const [late] = await db.sql<{ id: number; customer_id: number }>`
        insert into booking_revisions (booking_id, property_id, revision_type, payload)
        select id, property_id, 'cancelled', '{}' from bookings where property_id = ${propertyIds[0]} order by id limit 1
        returning id, customer_id`;
      expect(late?.customer_id).toBe(1);

      expect(await backfillRevisionCustomers(db, { batch: 25000 })).toBe('filled');
      expect(await state()).toEqual({ empty: 0, wrong: 0, done: true, index: true });
      expect(await accountFeed(db, consumer, propertyIds)).toEqual(before);
      expect(await backfillRevisionCustomers(db)).toBe('already done');
    } finally {
      await db.close();
    }
  }, 120_000);
});
