import type { Db } from '../core/db/db.ts';
import { heldNights } from './holdings.ts';
import { bookedLines, type ResolvedLine } from './lines.ts';
import { BookingRefused } from './refusal.ts';
import { nightCount, nightsOf } from './stay.ts';

/**
 * Checks a partner-originated booking against the calendar before it is taken (run inside the property's
 * actor turn, so the check and the hold cannot interleave with another booking or push):
 *  - every night needs free rooms (offered - booked, a night never pushed has none) for the qty of all
 *    lines of that room type together, and must be open (legacy `opened`): `no_availability` / `closed`;
 *  - per line's (rate plan, room type): no stop-sell night, not closed to arrival on the check-in day nor
 *    closed to departure on the check-out day (`closed`), min/max length of stay set on the check-in day
 *    (`length_of_stay`).
 * Channel intake (operator, inbound webhooks) skips this: the channel already sold the room.
 */
export async function assertBookable(
  tx: Db,
  lines: readonly ResolvedLine[],
  checkin: string,
  checkout: string,
): Promise<void> {
  const needed = heldNights('confirmed', bookedLines(lines, checkin, checkout));
  const roomTypeIds = [...new Set(lines.map((l) => l.roomTypeId))];
  const rows = await tx.sql<{ room_type_id: number; date: string; free: number; opened: boolean }>`
    select room_type_id, date, offered - booked as free, opened from availability
    where room_type_id = any(${roomTypeIds}::bigint[]) and date >= ${checkin} and date < ${checkout}`;
  const calendar = new Map(rows.map((r) => [`${r.room_type_id}|${r.date}`, r]));
  for (const [key, qty] of needed) {
    const day = calendar.get(key);
    if (day && !day.opened) throw new BookingRefused('closed');
    if (!day || day.free < qty) throw new BookingRefused('no_availability');
  }

  const nights = nightCount(checkin, checkout);
  for (const line of lines) {
    const restrictions = await tx.sql<{
      date: string;
      min_los: number | null;
      max_los: number | null;
      stop_sell: boolean | null;
      closed_to_arrival: boolean | null;
      closed_to_departure: boolean | null;
    }>`
      select date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure from restrictions
      where rate_plan_id = ${line.ratePlanId} and room_type_id = ${line.roomTypeId} and date >= ${checkin} and date <= ${checkout}`;
    const stay = new Set(nightsOf(checkin, checkout));
    for (const r of restrictions) {
      if (stay.has(r.date) && r.stop_sell) throw new BookingRefused('closed');
      if (r.date === checkin && r.closed_to_arrival) throw new BookingRefused('closed');
      if (r.date === checkout && r.closed_to_departure) throw new BookingRefused('closed');
      if (r.date === checkin && ((r.min_los ?? 0) > nights || (!!r.max_los && r.max_los < nights))) {
        throw new BookingRefused('length_of_stay');
      }
    }
  }
}
