import { formatDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { readRange } from './read-range.ts';

export interface RoomAvailability {
  room_type_id: string;
  partner_code: string | null;
  /** Date to free rooms, every date of the range; a date never pushed reads 0. */
  dates: Record<string, number>;
}

/** The read's route name and the resource its validation messages name. */
export const AVAILABILITY_SHOW = { name: 'qc.availability.show', resource: 'availability' } as const;

/** GET /availability: the checked `from`..`to` range and every room's free rooms in it. */
export async function showAvailability(db: Db, propertyId: number, query: { from: string; to: string }) {
  const range = readRange(query, AVAILABILITY_SHOW.resource);
  const rooms = await readAvailability(db, propertyId, range.from, range.to);
  return { from: formatDay(range.from), to: formatDay(range.to), rooms };
}

/**
 * Rooms to dates to free capacity, read back the way the partner pushed it: free =
 * offered - booked, never below zero (an overbooked day reads as 0). Every live room type is listed, in
 * creation order, with every date of the range: a date never pushed has nothing to sell and reads 0, so a
 * partner can diff what it sent against what is stored without treating absence as a case of its own.
 */
async function readAvailability(db: Db, propertyId: number, from: number, to: number): Promise<RoomAvailability[]> {
  const rows = await db.sql<{
    id: number;
    external_id: string;
    partner_code: string | null;
    date: string | null;
    free: number | null;
  }>`
    select rt.id, rt.external_id, rt.partner_code, a.date, greatest(a.offered - a.booked, 0) as free
    from room_types rt
    left join availability a on a.property_id = rt.property_id and a.room_type_id = rt.id and a.date between ${formatDay(from)}::date and ${formatDay(to)}::date
    where rt.property_id = ${propertyId} and rt.deleted_at is null
    order by rt.created_at, rt.id, a.date`;
  const rooms = new Map<number, RoomAvailability>();
  for (const row of rows) {
    let room = rooms.get(row.id);
    if (!room) {
      room = { room_type_id: row.external_id, partner_code: row.partner_code, dates: noneFree(from, to) };
      rooms.set(row.id, room);
    }
    if (row.date !== null && row.free !== null) room.dates[row.date] = row.free;
  }
  return [...rooms.values()];
}

/** Every date of from..to (day numbers) at 0 free rooms, in date order. */
function noneFree(from: number, to: number): Record<string, number> {
  const dates: Record<string, number> = {};
  for (let day = from; day <= to; day++) dates[formatDay(day)] = 0;
  return dates;
}
