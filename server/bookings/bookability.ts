import { nightRefusal, readStayCalendar, restrictionRefusal } from '../../pricing/stay-sellability.ts';
import type { Db } from '../core/db/db.ts';
import { heldNights } from './holdings.ts';
import { bookedLines, type ResolvedLine } from './lines.ts';
import { BookingRefused } from './refusal.ts';
import { nightsOf } from './stay.ts';

/**
 * Checks a partner-originated booking against the calendar before it is taken (run inside the property's
 * actor turn, so the check and the hold cannot interleave with another booking or push), by the one stay rule
 * legacy offers use too (pricing/stay-sellability.ts):
 *  - every night needs free rooms (offered - booked, a night never pushed has none) for the qty of all
 *    lines of that room type together, and must be open (legacy `opened`): `no_availability` / `closed`;
 *  - per line's (rate plan, room type): no stop-sell night, not closed to arrival on the check-in day nor
 *    closed to departure on the check-out day (`closed`), min/max length of stay set on the check-in day
 *    (`length_of_stay`).
 * Channel intake (operator, inbound webhooks) skips this: the channel already sold the room.
 */
export async function assertBookable(
  tx: Db,
  propertyId: number,
  lines: readonly ResolvedLine[],
  checkin: string,
  checkout: string,
): Promise<void> {
  const needed = heldNights('confirmed', bookedLines(lines, checkin, checkout));
  const roomTypeIds = [...new Set(lines.map((l) => l.roomTypeId))];
  const ratePlanIds = [...new Set(lines.map((l) => l.ratePlanId))];
  const calendar = await readStayCalendar(tx, { propertyId, roomTypeIds, ratePlanIds, checkin, checkout });
  // Lines of one room type share its free rooms: the rooms rule runs on their summed qty per night.
  for (const [key, qty] of needed) {
    const [roomTypeId, date] = key.split('|') as [string, string];
    const refusal = nightRefusal(calendar.night(Number(roomTypeId), date), qty);
    if (refusal) throw new BookingRefused(refusal);
  }
  const stay = { checkin, checkout, nights: nightsOf(checkin, checkout) };
  for (const line of lines) {
    const refusal = restrictionRefusal(calendar, line.ratePlanId, line.roomTypeId, stay);
    if (refusal) throw new BookingRefused(refusal);
  }
}
