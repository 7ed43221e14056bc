import { formatDay } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import type { DayRun } from './day-rows.ts';

/**
 * The one writer of the `rates` table and the one of `restrictions` (availability's is
 * actors/availability-writes.ts). Each is ONE statement, `INSERT .. ON CONFLICT DO UPDATE .. WHERE changed`:
 * the batch travels as runs (a target's consecutive days with one value, DayRows.within), parallel arrays
 * expanded to day-rows by `generate_series` in the statement; a day-row whose value differs from the stored
 * one is rewritten, a missing one inserted, and the statement's command tag says how many it wrote
 * (Db.affected; the rest were unchanged, and only locked for the turn, never rewritten). Callers run these
 * in the property's actor turn, so nothing else writes the same rows in between; should a writer ever
 * bypass the actor, the conflict clause still merges rather than fails.
 *
 * Every calendar key leads with property_id (server/migrations/0820_calendar_partitioned.sql): a batch is one
 * property's (the turn's), so the statement looks the property up once, from the first run's room type; a
 * run of another property's room type or plan would break the composite foreign keys, never land.
 *
 * Why this shape (bench:inventory, docs/performance.md): a 20000-day-row push used to read every stored
 * row in one pass and then update the changed ones by a second join, with 20000-element arrays; the upsert
 * looks each day up once, and runs are 20 times fewer elements to serialize and for PostgreSQL to parse.
 */

export interface PairTarget {
  ratePlanId: number;
  roomTypeId: number;
}

/** Nightly values of manual codes: {"A1": 100, "A2": 150}. Merged into the stored map per code. */
export type Prices = Record<string, number>;

export const RESTRICTION_FIELDS = [
  'min_los',
  'max_los',
  'stop_sell',
  'closed_to_arrival',
  'closed_to_departure',
] as const;

/** The restriction fields a write sets; a field left out keeps its stored value. */
export interface RestrictionValues {
  min_los?: number;
  max_los?: number;
  stop_sell?: boolean;
  closed_to_arrival?: boolean;
  closed_to_departure?: boolean;
}

/** The columns every writer sends per run: where it starts and how many days it holds. */
export function runSpans(runs: readonly DayRun<unknown, unknown>[]): { firsts: string[]; lengths: number[] } {
  return { firsts: runs.map((r) => formatDay(r.from)), lengths: runs.map((r) => r.to - r.from + 1) };
}

/** Prices: codes sent replace those codes' stored values; codes not sent keep theirs. */
export async function writeRates(tx: Db, runs: readonly DayRun<PairTarget, Prices>[], setAt: Date): Promise<number> {
  if (!runs.length) return 0;
  const ratePlanIds = runs.map((r) => r.target.ratePlanId);
  const roomTypeIds = runs.map((r) => r.target.roomTypeId);
  const { firsts, lengths } = runSpans(runs);
  // A row's range shares one prices object across its days: each distinct object travels (and is parsed
  // as jsonb) once, and the runs refer to it by its 1-based position.
  const positions = new Map<Prices, number>();
  const distinct: string[] = [];
  const value = runs.map((r) => {
    let at = positions.get(r.value);
    if (at === undefined) {
      distinct.push(JSON.stringify(r.value));
      at = distinct.length;
      positions.set(r.value, at);
    }
    return at;
  });
  return tx.affected`
    insert into rates as r (property_id, rate_plan_id, room_type_id, date, prices, set_at)
    select (select property_id from room_types where id = ${roomTypeIds[0]}), u.rate_plan_id, u.room_type_id, u.first + g.day, p.prices, ${setAt}
    from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${firsts}::date[], ${lengths}::int[], ${value}::int[])
      as u(rate_plan_id, room_type_id, first, days, value)
    cross join lateral generate_series(0, u.days - 1) as g(day)
    join (select n, json::jsonb as prices from unnest(${distinct}::text[]) with ordinality as v(json, n)) p on p.n = u.value
    on conflict (property_id, rate_plan_id, room_type_id, date) do update set prices = r.prices || excluded.prices, set_at = excluded.set_at
      where not (r.prices @> excluded.prices)`;
}

/** Restrictions: the fields a day-row carries replace the stored ones; the others keep their value. */
export async function writeRestrictions(
  tx: Db,
  runs: readonly DayRun<PairTarget, RestrictionValues>[],
  setAt: Date,
): Promise<number> {
  if (!runs.length) return 0;
  const ratePlanIds = runs.map((r) => r.target.ratePlanId);
  const roomTypeIds = runs.map((r) => r.target.roomTypeId);
  const { firsts, lengths } = runSpans(runs);
  const int = (field: 'min_los' | 'max_los') => sparse(runs.map((r) => r.value[field] ?? null));
  // Booleans travel as 1/0: postgres.js infers a boolean array's type from its first element as scalar bool.
  const bool = (field: 'stop_sell' | 'closed_to_arrival' | 'closed_to_departure') =>
    sparse(runs.map((r) => (r.value[field] === undefined ? null : r.value[field] ? 1 : 0)));
  // A null column value means "not set" both in the table and in the batch: a new row stores it as not set,
  // an existing one keeps its value.
  return tx.affected`
    insert into restrictions as r (property_id, rate_plan_id, room_type_id, date, min_los, max_los, stop_sell,
      closed_to_arrival, closed_to_departure, set_at)
    select (select property_id from room_types where id = ${roomTypeIds[0]}), u.rate_plan_id, u.room_type_id, u.first + g.day, u.min_los, u.max_los, u.stop_sell::boolean,
      u.cta::boolean, u.ctd::boolean, ${setAt}
    from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${firsts}::date[], ${lengths}::int[],
      ${int('min_los')}::int[], ${int('max_los')}::int[], ${bool('stop_sell')}::int[],
      ${bool('closed_to_arrival')}::int[], ${bool('closed_to_departure')}::int[])
      as u(rate_plan_id, room_type_id, first, days, min_los, max_los, stop_sell, cta, ctd)
    cross join lateral generate_series(0, u.days - 1) as g(day)
    on conflict (property_id, rate_plan_id, room_type_id, date) do update set
      min_los = coalesce(excluded.min_los, r.min_los),
      max_los = coalesce(excluded.max_los, r.max_los),
      stop_sell = coalesce(excluded.stop_sell, r.stop_sell),
      closed_to_arrival = coalesce(excluded.closed_to_arrival, r.closed_to_arrival),
      closed_to_departure = coalesce(excluded.closed_to_departure, r.closed_to_departure),
      set_at = excluded.set_at
      where (excluded.min_los is not null and excluded.min_los is distinct from r.min_los)
        or (excluded.max_los is not null and excluded.max_los is distinct from r.max_los)
        or (excluded.stop_sell is not null and excluded.stop_sell is distinct from r.stop_sell)
        or (excluded.closed_to_arrival is not null and excluded.closed_to_arrival is distinct from r.closed_to_arrival)
        or (excluded.closed_to_departure is not null and excluded.closed_to_departure is distinct from r.closed_to_departure)`;
}

/**
 * A column no run of the push sets travels as one null instead of an array of nulls: `unnest` pads
 * a null (empty) array with nulls, so the statement reads the same, and neither side spends time on the array.
 */
export function sparse<T>(column: (T | null)[]): (T | null)[] | null {
  return column.every((x) => x === null) ? null : column;
}

export function mergePrices(earlier: Prices, later: Prices): Prices {
  return { ...earlier, ...later };
}

export function mergeRestrictions(earlier: RestrictionValues, later: RestrictionValues): RestrictionValues {
  return { ...earlier, ...later };
}
