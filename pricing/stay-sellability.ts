import type { Db } from '../server/core/db/db.ts';

/**
 * THE "is this stay sellable" rule, used by legacy getBookingOffers (legacy/property/offer-quote.ts) and by
 * partner booking intake (server/bookings/bookability.ts), so an offer is never refused when booked nor a
 * booking taken that no offer would show. For a stay (check-in day up to, not including, the check-out day):
 *  - rooms: every night needs a calendar row of the room type that is open (legacy `opened`; else `closed`)
 *    with at least the wanted rooms free (offered - booked; a night never pushed has none: `no_availability`);
 *  - restrictions of the (rate plan, room type), in date order: a stop-sell night, closed to arrival on the
 *    check-in day or closed to departure on the check-out day is `closed`; min/max length of stay set on the
 *    check-in day outside the stay's nights is `length_of_stay`.
 * It reads the calendar; it never writes (callers that must not race a write read inside the actor's turn).
 *
 * API: readStayCalendar(db, {propertyId, roomTypeIds, ratePlanIds, checkin, checkout}) -> StayCalendar;
 *      nightRefusal(calendar.night(roomTypeId, date), qty) -> StayRefusal | undefined;
 *      restrictionRefusal(calendar, ratePlanId, roomTypeId, stay) -> StayRefusal | undefined;
 *      stayRefusal(calendar, {ratePlanId, roomTypeId, qty}, stay) -> both, rooms first.
 */
export type StayRefusal = 'closed' | 'no_availability' | 'length_of_stay';

export interface Stay {
  checkin: string;
  checkout: string;
  /** The nights, check-in day first. */
  nights: readonly string[];
}

export interface CalendarNight {
  free: number;
  opened: boolean;
}

export interface StayRestriction {
  date: string;
  min_los: number | null;
  max_los: number | null;
  stop_sell: boolean | null;
  closed_to_arrival: boolean | null;
  closed_to_departure: boolean | null;
}

export interface StayCalendar {
  night(roomTypeId: number, date: string): CalendarNight | undefined;
  /** The restriction rows of a pair from check-in through check-out day, in date order. */
  restrictions(ratePlanId: number, roomTypeId: number): readonly StayRestriction[];
}

/** The availability and restrictions a stay's rule needs, in two queries whatever the number of pairs. */
export async function readStayCalendar(
  db: Db,
  scope: {
    /** The calendar's keys lead with the property (server/migrations/0820_calendar_partitioned.sql). */
    propertyId: number;
    roomTypeIds: readonly number[];
    ratePlanIds: readonly number[];
    checkin: string;
    checkout: string;
  },
): Promise<StayCalendar> {
  const { propertyId, roomTypeIds, ratePlanIds, checkin, checkout } = scope;
  const nights = await db.sql<CalendarNight & { room_type_id: number; date: string }>`
    select room_type_id, date, offered - booked as free, opened from availability
    where property_id = ${propertyId} and room_type_id = any(${roomTypeIds}::bigint[])
      and date >= ${checkin}::date and date < ${checkout}::date`;
  const rows = await db.sql<StayRestriction & { rate_plan_id: number; room_type_id: number }>`
    select rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure
    from restrictions
    where property_id = ${propertyId} and rate_plan_id = any(${ratePlanIds}::bigint[])
      and room_type_id = any(${roomTypeIds}::bigint[]) and date >= ${checkin}::date and date <= ${checkout}::date
    order by date`;
  const byNight = new Map(nights.map((n) => [`${n.room_type_id}|${n.date}`, n]));
  const byPair = new Map<string, StayRestriction[]>();
  for (const r of rows) {
    const key = `${r.rate_plan_id}|${r.room_type_id}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  return {
    night: (roomTypeId, date) => byNight.get(`${roomTypeId}|${date}`),
    restrictions: (ratePlanId, roomTypeId) => byPair.get(`${ratePlanId}|${roomTypeId}`) ?? [],
  };
}

/** Whether one night of a room type can give `qty` rooms. */
export function nightRefusal(night: CalendarNight | undefined, qty: number): StayRefusal | undefined {
  if (night && !night.opened) return 'closed';
  if (!night || night.free < qty) return 'no_availability';
  return undefined;
}

/** Whether the restrictions of a (rate plan, room type) allow the stay. */
export function restrictionRefusal(
  calendar: StayCalendar,
  ratePlanId: number,
  roomTypeId: number,
  stay: Stay,
): StayRefusal | undefined {
  const nights = new Set(stay.nights);
  for (const r of calendar.restrictions(ratePlanId, roomTypeId)) {
    if (nights.has(r.date) && r.stop_sell) return 'closed';
    if (r.date === stay.checkin && r.closed_to_arrival) return 'closed';
    if (r.date === stay.checkout && r.closed_to_departure) return 'closed';
    const count = stay.nights.length;
    if (r.date === stay.checkin && ((r.min_los ?? 0) > count || (!!r.max_los && r.max_los < count))) {
      return 'length_of_stay';
    }
  }
  return undefined;
}

/** The whole rule for `qty` rooms of one (rate plan, room type): rooms on every night, then restrictions. */
export function stayRefusal(
  calendar: StayCalendar,
  line: { ratePlanId: number; roomTypeId: number; qty: number },
  stay: Stay,
): StayRefusal | undefined {
  for (const date of stay.nights) {
    const refusal = nightRefusal(calendar.night(line.roomTypeId, date), line.qty);
    if (refusal) return refusal;
  }
  return restrictionRefusal(calendar, line.ratePlanId, line.roomTypeId, stay);
}
