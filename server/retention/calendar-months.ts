import { addDays, utcDay } from '../core/days.ts';
import { type Db, sqlState } from '../core/db/db.ts';
import { inBatches } from './batches.ts';

/**
 * The calendar's month partitions (server/migrations/0820_calendar_partitioned.sql): created ahead of the
 * accepted window (yesterday through two years ahead, actors/calendar-window.ts), dropped whole once the
 * month lies entirely before the retention horizon. Never a DELETE over a month of day-rows.
 */

const TABLES = ['availability', 'rates', 'restrictions'] as const;
/** Months created ahead: the window's two years, and one more so a pass can be missed without harm. */
const MONTHS_AHEAD = 26;
/**
 * A partition drop needs an exclusive lock on the parent for an instant, and every statement that arrives
 * while it waits queues behind it. So it waits at most this long, a few times with a rest between (a moment
 * without a running push), and past that leaves the month for the next pass. A drop waiting 200 ms once
 * stalled the pushes queued behind it by as much.
 */
const LOCK_TIMEOUT = '50ms';
const DROP_ATTEMPTS = 4;
const DROP_REST_MS = 250;
const LOCK_NOT_AVAILABLE = '55P03';

/** Creates the missing month partitions from last month through MONTHS_AHEAD months ahead; answers how many months. */
export async function ensureCalendarMonths(db: Db, now: Date): Promise<number> {
  const today = utcDay(now);
  return db.tx(async (tx) => {
    await tx.query(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
    const [row] = await tx.sql<{ created: number }>`
      select qc_calendar_months('', (${today}::date - interval '1 month')::date,
        (${today}::date + make_interval(months => ${MONTHS_AHEAD}))::date) as created`;
    return row?.created ?? 0;
  });
}

/** The month partitions of the three tables, with the first day after each month. */
async function monthPartitions(db: Db): Promise<{ name: string; end: string }[]> {
  return db.sql<{ name: string; end: string }>`
    select c.relname as name,
      (to_date(substring(c.relname from '_y([0-9]{4}m[0-9]{2})$'), 'YYYY"m"MM') + interval '1 month')::date::text as end
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = any(${[...TABLES]}::text[]) and c.relname ~ '_y[0-9]{4}m[0-9]{2}$'`;
}

/**
 * Drops every month partition whose days all lie before `keepDays` days ago, and deletes the default
 * partitions' rows that old (a few rows written outside the created months). Answers the partitions dropped
 * and the default rows deleted; a partition whose lock is not granted in time stays for the next pass. When
 * `signal` aborts (a process shutting down) it stops after the drop or batch under way, as every other step does:
 * without it a backlog of default rows (7480 in a test database: 30 batches and their rests, 12.6 s) held a
 * shutdown past its supervisor's patience.
 */
export async function dropPastCalendarMonths(
  db: Db,
  now: Date,
  keepDays: number,
  signal?: AbortSignal,
): Promise<{ partitions: number; defaultRows: number }> {
  const horizon = addDays(utcDay(now), -keepDays);
  let partitions = 0;
  for (const { name, end } of await monthPartitions(db)) {
    if (signal?.aborted) break;
    if (end > horizon) continue;
    if (await dropPartition(db, name)) partitions++;
  }
  let defaultRows = 0;
  for (const table of TABLES) {
    if (signal?.aborted) break;
    defaultRows += await inBatches(async (batch) => {
      const rows = await db.query<{ n: number }>(
        `with gone as (delete from ${table}_default where ctid = any(array(
           select ctid from ${table}_default where date < $1::date limit $2)) returning 1)
         select count(*)::int as n from gone`,
        [horizon, batch],
      );
      return rows[0]?.n ?? 0;
    }, signal);
  }
  return { partitions, defaultRows };
}

/** Drops one month partition; false when its lock was not granted in DROP_ATTEMPTS short waits. */
async function dropPartition(db: Db, name: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const dropped = await db
      .tx(async (tx) => {
        await tx.query(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
        await tx.query(`drop table if exists "${name}"`);
        return true;
      })
      .catch((err) => {
        if (sqlState(err) === LOCK_NOT_AVAILABLE) return false;
        throw err;
      });
    if (dropped || attempt === DROP_ATTEMPTS) return dropped;
    await Bun.sleep(DROP_REST_MS);
  }
}
