import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { Db } from '../server/core/db/db.ts';
import { migrate, splitStatements } from '../server/core/db/migrate.ts';
import { openPostgres } from '../server/core/db/postgres.ts';
import { backfillCalendar } from './calendar-backfill.ts';

/**
 * Migration 0820 on a populated calendar, both ways an operator meets it: converted in place at start-up,
 * and copied online by `npm run calendar:backfill` (with a write to the old tables after the copy, as the
 * previous release keeps serving) before the migration swaps the names. Each on a database of its own,
 * named after the test database and dropped afterwards, migrated only up to 0820 first.
 */
// Its own databases are made and opened directly: through a transaction pooler (npm run test:pooler) neither works.
const base = process.env.DATABASE_SESSION_URL ?? process.env.DATABASE_URL ?? '';
const MIGRATIONS = join(import.meta.dir, '..', 'server', 'migrations');
const admin = postgres(base.replace(/\/[^/]+$/, '/postgres'), { max: 1, onnotice: () => {} });
const created: string[] = [];

async function beforeCalendarPartitioned(): Promise<Db> {
  const name = `${new URL(base).pathname.slice(1)}_cal_${Math.random().toString(36).slice(2, 8)}`;
  await admin.unsafe(`create database ${name}`);
  created.push(name);
  const db = openPostgres(base.replace(/\/[^/]+$/, `/${name}`), { timeoutMs: 30_000 });
  await db.query(
    'create table schema_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql') && f < '0820')
    .sort()) {
    await db.tx(async (tx) => {
      for (const statement of splitStatements(readFileSync(join(MIGRATIONS, file), 'utf8'))) await tx.query(statement);
      await tx.sql`insert into schema_migrations (name) values (${file})`;
    });
  }
  // Two properties with a room type and a plan each, and a year of calendar on the old, unpartitioned tables.
  await db.query(`
    insert into customers (name) values ('calendar');
    insert into properties (customer_id, name, currency, timezone) select 1, 'P' || g, 'EUR', 'UTC' from generate_series(1, 2) g;
    insert into room_types (property_id, name) select id, 'Double' from properties;
    insert into rate_plans (property_id, name, sell_type) select id, 'BAR', 'per_room' from properties;
    insert into availability (room_type_id, date, offered, booked)
      select rt.id, current_date + d, 5, 1 from room_types rt, generate_series(-40, 365) d;
    insert into rates (rate_plan_id, room_type_id, date, prices)
      select rp.id, rt.id, current_date + d, '{"ROOM": 90}' from rate_plans rp join room_types rt using (property_id), generate_series(0, 365) d;
    insert into restrictions (rate_plan_id, room_type_id, date, min_los)
      select rp.id, rt.id, current_date + d, 2 from rate_plans rp join room_types rt using (property_id), generate_series(0, 99) d`);
  return db;
}

async function calendar(db: Db) {
  const [row] = await db.sql<{
    kind: string;
    availability: number;
    rates: number;
    restrictions: number;
    keyed: boolean;
  }>`
    select (select relkind::text from pg_class where oid = 'availability'::regclass) as kind,
      (select count(*)::int from availability) as availability, (select count(*)::int from rates) as rates,
      (select count(*)::int from restrictions) as restrictions,
      (select bool_and(a.property_id = rt.property_id) from availability a join room_types rt on rt.id = a.room_type_id) as keyed`;
  return row;
}

afterAll(async () => {
  for (const name of created) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
});

// On PostgreSQL only: it makes databases of its own beside the test database (not on the embedded default).
describe.skipIf(!base)('the calendar conversion (migration 0820)', () => {
  it('converts a small populated calendar in place at start-up, every row kept and keyed by its property', async () => {
    const db = await beforeCalendarPartitioned();
    try {
      await migrate(db);
      expect(await calendar(db)).toEqual({ kind: 'p', availability: 812, rates: 732, restrictions: 200, keyed: true });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('copies online in batches, mirrors writes made meanwhile, and the migration then only swaps the tables in', async () => {
    const db = await beforeCalendarPartitioned();
    try {
      expect(await backfillCalendar(db, { batch: 1 })).toBe('copied');
      // The previous release keeps writing the old tables: an update and a new day after the copy.
      await db.query(`update availability set offered = 9 where date = current_date + 10`);
      await db.query(`insert into rates (rate_plan_id, room_type_id, date, prices)
        select rp.id, rt.id, current_date + 500, '{"ROOM": 120}' from rate_plans rp join room_types rt using (property_id)`);
      await migrate(db);
      expect(await calendar(db)).toEqual({ kind: 'p', availability: 812, rates: 734, restrictions: 200, keyed: true });
      const [moved] = await db.sql<{ offered: number[]; prices: unknown[]; old: string | null }>`
        select array(select offered from availability where date = current_date + 10) as offered,
          array(select prices from rates where date = current_date + 500) as prices,
          to_regclass('availability_unpartitioned')::text as old`;
      expect(moved).toEqual({ offered: [9, 9], prices: [{ ROOM: 120 }, { ROOM: 120 }], old: null });
      // Run again after the swap: nothing left to do.
      expect(await backfillCalendar(db)).toBe('already partitioned');
    } finally {
      await db.close();
    }
  }, 60_000);
});

/** `npm run calendar:backfill -- <args>` in a folder of its own: its exit status and what it printed. */
async function runCli(args: string[], env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'qc-backfill-'));
  try {
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'calendar-backfill.ts'), ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: '', DATABASE_SESSION_URL: '', ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [status, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    return { status, out, err, createdDataDir: existsSync(join(cwd, '.data')) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('the calendar:backfill command line', () => {
  // It ran the backfill whatever it was given: --help created ./.data/pglite and crashed with a stack.
  it('prints its usage for --help and exits 0, touching no database', async () => {
    const help = await runCli(['--help'], {});
    expect(help).toMatchObject({ status: 0, err: '', createdDataDir: false });
    expect(help.out).toContain(
      'usage: DATABASE_URL=postgres://... npm run calendar:backfill -- [--batch N] [--pause-ms N]',
    );
  });

  it('refuses an unknown option or a bad value with exit 2 and one line naming the option', async () => {
    const cases: [string[], string][] = [
      [['--batch', 'abc'], '--batch'],
      [['--batch', '0'], '--batch'],
      [['--batch'], '--batch'],
      [['--pause-ms', '-5'], '--pause-ms'],
      [['--pause-ms=1.5'], '--pause-ms'],
      [['--bacth', '5'], '--bacth'],
    ];
    for (const [args, option] of cases) {
      // A database URL that answers nothing: a refusal must come before any connection.
      const run = await runCli(args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      expect({ args, status: run.status, out: run.out }).toEqual({ args, status: 2, out: '' });
      expect(run.err.trim().split('\n')).toHaveLength(1);
      expect(run.err).toStartWith(`calendar:backfill: `);
      expect(run.err).toContain(option);
    }
  });

  it('refuses to run without DATABASE_URL rather than create an embedded database', async () => {
    const run = await runCli([], {});
    expect(run).toMatchObject({ status: 2, out: '', createdDataDir: false });
    expect(run.err.trim().split('\n')).toEqual([expect.stringContaining('DATABASE_URL')]);
  });

  it.skipIf(!base)('refuses a database that was never migrated in one line, no stack', async () => {
    const name = `${new URL(base).pathname.slice(1)}_cal_${Math.random().toString(36).slice(2, 8)}`;
    await admin.unsafe(`create database ${name}`);
    created.push(name);
    const run = await runCli(['--batch', '10'], { DATABASE_URL: base.replace(/\/[^/]+$/, `/${name}`) });
    expect(run).toMatchObject({ status: 1, out: '' });
    expect(run.err.trim().split('\n')).toEqual([expect.stringContaining('never migrated')]);
  });
});
