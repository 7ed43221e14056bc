/**
 * `npm run calendar:backfill`: the online half of migration 0820 (the partitioned calendar) for a populated
 * database, run while the previous release still serves. Resumable: run it again after an interruption.
 *
 * 1. Installs the migration's preparation (everything of 0820 above "The conversion": the (property_id, id)
 *    keys of room_types and rate_plans, the partition functions), creates the partitioned tables as
 *    `availability_next`, `rates_next`, `restrictions_next` with their month partitions, and statement
 *    triggers that mirror every insert and update of the old tables into them (the partner keeps pushing).
 * 2. Copies the old rows in batches of a few dozen room types (availability) or rate plans (rates,
 *    restrictions), each batch its own short transaction, `on conflict do nothing`: a row a trigger
 *    already mirrored is newer than the copy, and a write racing a batch waits for it, then overwrites.
 * 3. Marks the copy done. The release's migration then swaps the names in one short transaction
 *    (server/migrations/0820_calendar_partitioned.sql) and drops the old tables.
 *
 * Options: --batch N (parents per batch, default 50), --pause-ms N (between batches, default 0), --help. Exit
 * status 0 when copied (or nothing to do), 1 when it cannot run (a database never migrated, a wrong variable),
 * 2 on bad usage (an unknown option, a bad value, no DATABASE_URL); each refusal is one line on stderr.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../server/core/db/db.ts';
import { splitStatements } from '../server/core/db/migrate.ts';
import { openDb } from '../server/core/db/open.ts';
import { type BackfillCommand, backfillCommand } from './backfill-command.ts';

const MIGRATION = join(import.meta.dir, '..', 'server', 'migrations', '0820_calendar_partitioned.sql');

/** Per table: the old table's leading key column, the parent table it references, and the copy's columns. */
const TABLES = {
  availability: {
    key: 'room_type_id',
    parent: 'room_types',
    columns: 'room_type_id, date, offered, booked, opened, set_at',
    conflict: 'property_id, room_type_id, date',
  },
  rates: {
    key: 'rate_plan_id',
    parent: 'rate_plans',
    columns: 'rate_plan_id, room_type_id, date, prices, set_at',
    conflict: 'property_id, rate_plan_id, room_type_id, date',
  },
  restrictions: {
    key: 'rate_plan_id',
    parent: 'rate_plans',
    columns:
      'rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure, set_at',
    conflict: 'property_id, rate_plan_id, room_type_id, date',
  },
} as const;
type Table = keyof typeof TABLES;

export async function backfillCalendar(
  db: Db,
  options: { batch?: number; pauseMs?: number; log?: (line: string) => void } = {},
): Promise<'already partitioned' | 'copied' | 'not migrated'> {
  const log = options.log ?? (() => {});
  const [state] = await db.sql<{
    kind: string | null;
  }>`select (select relkind::text from pg_class where oid = to_regclass('availability')) as kind`;
  // A database without a calendar has nothing to copy: its first migration creates the partitioned one directly.
  if (!state?.kind) return 'not migrated';
  if (state.kind === 'p') return 'already partitioned';
  await prepare(db);
  for (const table of Object.keys(TABLES) as Table[])
    await copy(db, table, options.batch ?? 50, options.pauseMs ?? 0, log);
  for (const table of Object.keys(TABLES)) await db.query(`analyze ${table}_next`);
  return 'copied';
}

async function prepare(db: Db): Promise<void> {
  const text = readFileSync(MIGRATION, 'utf8');
  const preparation = text.slice(0, text.indexOf('-- The conversion'));
  await db.tx(async (tx) => {
    for (const statement of splitStatements(preparation)) await tx.query(statement);
    const [exists] = await tx.sql<{ next: string | null }>`select to_regclass('availability_next')::text as next`;
    if (exists?.next) return;
    await tx.sql`select qc_calendar_tables('_next')`;
    await tx.sql`select qc_calendar_months('_next', (current_date - interval '2 months')::date, (current_date + interval '25 months')::date)`;
    await tx.sql`create table calendar_backfill (name text primary key, copied_through bigint not null default 0, done boolean not null default false)`;
    await tx.sql`insert into calendar_backfill (name) values ('availability'), ('rates'), ('restrictions')`;
    for (const [table, spec] of Object.entries(TABLES)) {
      const set = spec.columns
        .split(', ')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ');
      const from = spec.columns
        .split(', ')
        .map((c) => `n.${c}`)
        .join(', ');
      await tx.query(`
        create function calendar_mirror_${table}() returns trigger language plpgsql as $$
        begin
          insert into ${table}_next (property_id, ${spec.columns})
            select rt.property_id, ${from} from changed n join room_types rt on rt.id = n.room_type_id
          on conflict (${spec.conflict}) do update set ${set};
          return null;
        end $$`);
      for (const event of ['insert', 'update']) {
        await tx.query(`create trigger ${table}_mirror_${event} after ${event} on ${table}
          referencing new table as changed for each statement execute function calendar_mirror_${table}()`);
      }
    }
  });
}

async function copy(db: Db, table: Table, batch: number, pauseMs: number, log: (line: string) => void) {
  const spec = TABLES[table];
  for (;;) {
    const [progress] = await db.sql<{ copied_through: number; done: boolean }>`
      select copied_through, done from calendar_backfill where name = ${table}`;
    if (!progress || progress.done) return;
    const copied = await db.tx(async (tx) => {
      const [bound] = await tx.query<{ upto: number | null }>(
        `select max(id) as upto from (select id from ${spec.parent} where id > $1 order by id limit $2) s`,
        [progress.copied_through, batch],
      );
      const upto = bound?.upto ?? null;
      if (upto === null) {
        await tx.sql`update calendar_backfill set done = true where name = ${table}`;
        return -1;
      }
      const rows = await tx.query<{ n: number }>(
        `with copied as (
           insert into ${table}_next (property_id, ${spec.columns})
           select rt.property_id, ${spec.columns
             .split(', ')
             .map((c) => `o.${c}`)
             .join(', ')}
           from ${table} o join room_types rt on rt.id = o.room_type_id
           where o.${spec.key} > $1 and o.${spec.key} <= $2
           on conflict (${spec.conflict}) do nothing
           returning 1)
         select count(*)::int as n from copied`,
        [progress.copied_through, upto],
      );
      await tx.sql`update calendar_backfill set copied_through = ${upto} where name = ${table}`;
      return rows[0]?.n ?? 0;
    });
    if (copied < 0) {
      log(`${table}: copied`);
      return;
    }
    log(`${table}: ${copied} rows`);
    if (pauseMs) await Bun.sleep(pauseMs);
  }
}

const USAGE = `usage: DATABASE_URL=postgres://... npm run calendar:backfill -- [--batch N] [--pause-ms N]

Copies the calendar into the partitioned tables of migration 0820 while the previous release still serves
(docs/operations.md, "Partitioned calendar"); run it again to resume after an interruption.

  --batch N      room types or rate plans copied per transaction, 1 or more (default 50)
  --pause-ms N   milliseconds to wait between two batches, 0 or more (default 0)
  --help         this text`;

/** The command: its exit status (0 done, 1 cannot run here, 2 bad usage); a refusal is one line on stderr. */
const COMMAND: BackfillCommand = {
  name: 'calendar:backfill',
  usage: USAGE,
  batch: 50,
  // The copy is for a populated PostgreSQL database served meanwhile by the previous release; the embedded one is
  // converted in place at start-up (and opening it here would create an empty one under the data dir).
  purpose: 'copy (the embedded database needs no backfill)',
  open: (config) => openDb(config),
  async run(db, options) {
    const outcome = await backfillCalendar(db, { ...options, log: console.log });
    if (outcome === 'not migrated')
      return { refused: 'the database has no calendar tables: never migrated, its first migration needs no backfill' };
    return {
      done:
        outcome === 'copied'
          ? 'calendar copied into the partitioned tables; deploy the release: its migration swaps them in'
          : 'the calendar is already partitioned: nothing to do',
    };
  },
};

if (import.meta.main) process.exit(await backfillCommand(COMMAND, process.argv.slice(2)));
