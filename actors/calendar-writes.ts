import type { Db } from '../server/core/db/db.ts';
import { formatDay } from './calendar-days.ts';
import type { DayRow } from './day-rows.ts';

/**
 * The three calendar tables' bulk writes. Each is ONE statement: the day-rows travel as parallel arrays
 * (`unnest($1::bigint[], $2::date[], ...)`), the statement compares them with what is stored and upserts only
 * the day-rows that change something, and answers how many it wrote; the rest were unchanged. Callers run
 * these inside the property's actor turn, so nothing else writes the same rows in between.
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

/** Availability: the partner's free rooms; stored as offered = free + the service's own booked count. */
export async function writeAvailability(tx: Db, days: readonly DayRow<number, number>[], setAt: Date): Promise<number> {
  if (!days.length) return 0;
  const roomTypeIds = days.map((d) => d.target);
  const dates = days.map((d) => formatDay(d.day));
  const free = days.map((d) => d.value);
  const [row] = await tx.sql<{ written: number }>`
    with incoming as (
      select * from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${free}::int[]) as i(room_type_id, date, free)
    ), changed as (
      select i.* from incoming i
      left join availability a on a.room_type_id = i.room_type_id and a.date = i.date
      where a.room_type_id is null or a.offered <> i.free + a.booked
    ), written as (
      insert into availability as a (room_type_id, date, offered, set_at)
      select room_type_id, date, free, ${setAt} from changed
      on conflict (room_type_id, date) do update set offered = excluded.offered + a.booked, set_at = excluded.set_at
      returning 1
    )
    select count(*) as written from written`;
  return row?.written ?? 0;
}

/** Prices: codes sent replace those codes' stored values; codes not sent keep theirs. */
export async function writeRates(tx: Db, days: readonly DayRow<PairTarget, Prices>[], setAt: Date): Promise<number> {
  if (!days.length) return 0;
  const ratePlanIds = days.map((d) => d.target.ratePlanId);
  const roomTypeIds = days.map((d) => d.target.roomTypeId);
  const dates = days.map((d) => formatDay(d.day));
  // One row's range shares one prices object across its days: serialize each object once.
  const json = new Map<Prices, string>();
  const prices = days.map((d) => {
    let text = json.get(d.value);
    if (text === undefined) {
      text = JSON.stringify(d.value);
      json.set(d.value, text);
    }
    return text;
  });
  const [row] = await tx.sql<{ written: number }>`
    with incoming as (
      select i.rate_plan_id, i.room_type_id, i.date, i.prices::jsonb as prices
      from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${dates}::date[], ${prices}::text[])
        as i(rate_plan_id, room_type_id, date, prices)
    ), changed as (
      select i.* from incoming i
      left join rates r on r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date
      where r.prices is null or r.prices || i.prices <> r.prices
    ), written as (
      insert into rates as r (rate_plan_id, room_type_id, date, prices, set_at)
      select rate_plan_id, room_type_id, date, prices, ${setAt} from changed
      on conflict (rate_plan_id, room_type_id, date) do update set prices = r.prices || excluded.prices, set_at = excluded.set_at
      returning 1
    )
    select count(*) as written from written`;
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
  const int = (field: 'min_los' | 'max_los') => days.map((d) => d.value[field] ?? null);
  // Booleans travel as 1/0: postgres.js infers a boolean array's type from its first element as scalar bool.
  const bool = (field: 'stop_sell' | 'closed_to_arrival' | 'closed_to_departure') =>
    days.map((d) => (d.value[field] === undefined ? null : d.value[field] ? 1 : 0));
  const [row] = await tx.sql<{ written: number }>`
    with incoming as (
      select i.rate_plan_id, i.room_type_id, i.date, i.min_los, i.max_los,
        i.stop_sell::boolean as stop_sell, i.cta::boolean as cta, i.ctd::boolean as ctd
      from unnest(${ratePlanIds}::bigint[], ${roomTypeIds}::bigint[], ${dates}::date[], ${int('min_los')}::int[],
        ${int('max_los')}::int[], ${bool('stop_sell')}::int[], ${bool('closed_to_arrival')}::int[],
        ${bool('closed_to_departure')}::int[]) as i(rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, cta, ctd)
    ), changed as (
      select i.* from incoming i
      left join restrictions r on r.rate_plan_id = i.rate_plan_id and r.room_type_id = i.room_type_id and r.date = i.date
      where r.date is null
        or (i.min_los is not null and i.min_los is distinct from r.min_los)
        or (i.max_los is not null and i.max_los is distinct from r.max_los)
        or (i.stop_sell is not null and i.stop_sell is distinct from r.stop_sell)
        or (i.cta is not null and i.cta is distinct from r.closed_to_arrival)
        or (i.ctd is not null and i.ctd is distinct from r.closed_to_departure)
    ), written as (
      insert into restrictions as r (rate_plan_id, room_type_id, date, min_los, max_los, stop_sell,
        closed_to_arrival, closed_to_departure, set_at)
      select rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, cta, ctd, ${setAt} from changed
      on conflict (rate_plan_id, room_type_id, date) do update set
        min_los = coalesce(excluded.min_los, r.min_los),
        max_los = coalesce(excluded.max_los, r.max_los),
        stop_sell = coalesce(excluded.stop_sell, r.stop_sell),
        closed_to_arrival = coalesce(excluded.closed_to_arrival, r.closed_to_arrival),
        closed_to_departure = coalesce(excluded.closed_to_departure, r.closed_to_departure),
        set_at = excluded.set_at
      returning 1
    )
    select count(*) as written from written`;
  return row?.written ?? 0;
}

export function mergePrices(earlier: Prices, later: Prices): Prices {
  return { ...earlier, ...later };
}

export function mergeRestrictions(earlier: RestrictionValues, later: RestrictionValues): RestrictionValues {
  return { ...earlier, ...later };
}
