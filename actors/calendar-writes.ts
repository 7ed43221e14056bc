import { formatDay } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import type { DayRow } from './day-rows.ts';

/**
 * The one writer of the `rates` table and the one of `restrictions` (availability's is
 * actors/availability-writes.ts). Each is ONE statement: the day-rows travel as parallel arrays
 * (`unnest($1::bigint[], $2::date[], ...)`); the statement reads what is stored for them in one index pass,
 * updates only the rows whose value changes, inserts the missing ones, and answers how many it wrote (the
 * rest were unchanged). Unchanged day-rows are only read, never locked or rewritten. Callers run these in
 * the property's actor turn, so nothing else writes the same rows in between; the update still joins on the
 * primary key (not a remembered ctid) and the insert still resolves conflicts, so a writer that bypassed
 * the actor could not make a day-row vanish.
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
export type RestrictionField = (typeof RESTRICTION_FIELDS)[number];

/** The restriction fields a write sets; a field left out keeps its stored value. */
export interface RestrictionValues {
  min_los?: number;
  max_los?: number;
  stop_sell?: boolean;
  closed_to_arrival?: boolean;
  closed_to_departure?: boolean;
}

/** Prices: codes sent replace those codes' stored values; codes not sent keep theirs. */
export async function writeRates(tx: Db, days: readonly DayRow<PairTarget, Prices>[], setAt: Date): Promise<number> {
  if (!days.length) return 0;
  const ratePlanIds = days.map((d) => d.target.ratePlanId);
  const roomTypeIds = days.map((d) => d.target.roomTypeId);
  const dates = days.map((d) => formatDay(d.day));
  // A row's range shares one prices object across its days: each distinct object travels (and is parsed
  // as jsonb) once, and the day-rows refer to it by its 1-based position.
  const positions = new Map<Prices, number>();
  const distinct: string[] = [];
  const value = days.map((d) => {
    let at = positions.get(d.value);
    if (at === undefined) {
      distinct.push(JSON.stringify(d.value));
      at = distinct.length;
      positions.set(d.value, at);
    }
    return at;
  });
  const [row] = await tx.sql<{ written: number }>`
    with distinct_prices as (
      select array_agg(json::jsonb order by n) as list from unnest(${distinct}::text[]) with ordinality as v(json, n)
    ), incoming as (
      select i.rate_plan_id, i.room_type_id, i.date, d.list[i.value] as prices, r.prices as stored
      from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${dates}::date[], ${value}::int[])
        as i(rate_plan_id, room_type_id, date, value)
      cross join distinct_prices d
      left join rates r on r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date
    ), updated as (
      update rates r set prices = r.prices || i.prices, set_at = ${setAt}
      from incoming i
      where r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date
        and not (i.stored @> i.prices)
      returning 1
    ), inserted as (
      insert into rates as r (rate_plan_id, room_type_id, date, prices, set_at)
      select rate_plan_id, room_type_id, date, prices, ${setAt} from incoming where stored is null
      on conflict (rate_plan_id, room_type_id, date) do update set prices = r.prices || excluded.prices, set_at = excluded.set_at
      returning 1
    )
    select (select count(*) from updated) + (select count(*) from inserted) as written`;
  return row?.written ?? 0;
}

/** Restrictions: the fields a day-row carries replace the stored ones; the others keep their value. */
export async function writeRestrictions(
  tx: Db,
  days: readonly DayRow<PairTarget, RestrictionValues>[],
  setAt: Date,
): Promise<number> {
  if (!days.length) return 0;
  const ratePlanIds = days.map((d) => d.target.ratePlanId);
  const roomTypeIds = days.map((d) => d.target.roomTypeId);
  const dates = days.map((d) => formatDay(d.day));
  const int = (field: 'min_los' | 'max_los') => sparse(days.map((d) => d.value[field] ?? null));
  // Booleans travel as 1/0: postgres.js infers a boolean array's type from its first element as scalar bool.
  const bool = (field: 'stop_sell' | 'closed_to_arrival' | 'closed_to_departure') =>
    sparse(days.map((d) => (d.value[field] === undefined ? null : d.value[field] ? 1 : 0)));
  const [row] = await tx.sql<{ written: number }>`
    with incoming as (
      select i.rate_plan_id, i.room_type_id, i.date, i.min_los, i.max_los,
        i.stop_sell::boolean as stop_sell, i.cta::boolean as cta, i.ctd::boolean as ctd, r.date is not null as stored,
        (i.min_los is not null and i.min_los is distinct from r.min_los)
          or (i.max_los is not null and i.max_los is distinct from r.max_los)
          or (i.stop_sell is not null and i.stop_sell::boolean is distinct from r.stop_sell)
          or (i.cta is not null and i.cta::boolean is distinct from r.closed_to_arrival)
          or (i.ctd is not null and i.ctd::boolean is distinct from r.closed_to_departure) as differs
      from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${dates}::date[], ${int('min_los')}::int[],
        ${int('max_los')}::int[], ${bool('stop_sell')}::int[], ${bool('closed_to_arrival')}::int[],
        ${bool('closed_to_departure')}::int[]) as i(rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, cta, ctd)
      left join restrictions r on r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date
    ), updated as (
      update restrictions r set
        min_los = coalesce(i.min_los, r.min_los),
        max_los = coalesce(i.max_los, r.max_los),
        stop_sell = coalesce(i.stop_sell, r.stop_sell),
        closed_to_arrival = coalesce(i.cta, r.closed_to_arrival),
        closed_to_departure = coalesce(i.ctd, r.closed_to_departure),
        set_at = ${setAt}
      from incoming i
      where r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date and i.differs
      returning 1
    ), inserted as (
      insert into restrictions as r (rate_plan_id, room_type_id, date, min_los, max_los, stop_sell,
        closed_to_arrival, closed_to_departure, set_at)
      select rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, cta, ctd, ${setAt} from incoming where not stored
      on conflict (rate_plan_id, room_type_id, date) do update set
        min_los = coalesce(excluded.min_los, r.min_los),
        max_los = coalesce(excluded.max_los, r.max_los),
        stop_sell = coalesce(excluded.stop_sell, r.stop_sell),
        closed_to_arrival = coalesce(excluded.closed_to_arrival, r.closed_to_arrival),
        closed_to_departure = coalesce(excluded.closed_to_departure, r.closed_to_departure),
        set_at = excluded.set_at
      returning 1
    )
    select (select count(*) from updated) + (select count(*) from inserted) as written`;
  return row?.written ?? 0;
}

/**
 * A column no day-row of the push sets travels as one null instead of an array of 20000 nulls: `unnest` pads
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
