import { daysBetween, isDay } from '../../server/core/days.ts';
import { dataResponse } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, LegacyError, messages } from '../messages.ts';
import { isSet } from '../php-input.ts';
import { resolveLegacyRooms } from './rooms.ts';

const m = messages.getAvailability;

/** The longest range one call reads: the updateAvailability window (yesterday to two years ahead). */
const MAX_SPAN_DAYS = 732;

/**
 * GET availability/getAvailability (design; spec 4.8 fixes only the room_id/ext_room_id exclusivity).
 * Query: `date_from`, `date_to` (required, inclusive, at most 732 days with both ends counted: date_to at most 731
 * days after date_from), optionally one of `room_id` or `ext_room_id` (without either: every room of the
 * property). Answer: the calendar rows that exist,
 * `{data: [{room_id, date, qty, opened}]}` ordered by room then date, where qty = offered - booked (the
 * free rooms, never below 0) and opened the sale flag.
 */
export async function getAvailability({ deps, caller, query }: LegacyCall): Promise<Response> {
  if (isSet(query.room_id) && isSet(query.ext_room_id)) throw badRequest(m.bothRoomIds);
  const { date_from: from, date_to: to } = query;
  if (!isDay(from) || !isDay(to) || from > to || daysBetween(from, to) >= MAX_SPAN_DAYS) throw badRequest(m.badRequest);

  let roomIds: number[];
  if (isSet(query.room_id) || isSet(query.ext_room_id)) {
    const rooms = await resolveLegacyRooms(deps.db, caller, {
      roomIds: [query.room_id],
      extRoomIds: [query.ext_room_id],
    });
    const id = isSet(query.room_id) ? rooms.byRoomId(query.room_id) : rooms.byExtRoomId(query.ext_room_id);
    if (id === undefined) {
      throw isSet(query.room_id) ? badRequest(m.badRequest) : new LegacyError(404, m.extRoomNotFound);
    }
    roomIds = [id];
  } else {
    const rooms = await deps.db.sql<{ id: number }>`
      select id from room_types where property_id = ${caller.propertyId} and deleted_at is null`;
    roomIds = rooms.map((r) => r.id);
  }

  const rows = await deps.db.sql<{ room_id: number; date: string; qty: number; opened: boolean }>`
    select room_type_id as room_id, date, greatest(offered - booked, 0) as qty, opened
    from availability
    where property_id = ${caller.propertyId} and room_type_id = any(${roomIds}::bigint[]) and date between ${from}::date and ${to}::date
    order by room_type_id, date`;
  return dataResponse(rows.map((r) => ({ room_id: r.room_id, date: r.date, qty: r.qty, opened: r.opened })));
}
