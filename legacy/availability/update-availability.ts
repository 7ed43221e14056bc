import { type AvailabilityValue, mergeAvailability, writeAvailability } from '../../actors/availability-writes.ts';
import { readCalendarProperty } from '../../actors/calendar-property.ts';
import { DayRows } from '../../actors/day-rows.ts';
import { localToday, parseDay, phpAddYears } from '../../server/core/days.ts';
import type { Db } from '../../server/core/db/db.ts';
import { success } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, LegacyError, messages } from '../messages.ts';
import { asList, isArray, isSet, looseBool, looseInt, looseNumber } from '../php-input.ts';
import { type LegacyRooms, resolveLegacyRooms } from './rooms.ts';

const m = messages.updateAvailability;
/** Keeps offered = qty + booked inside the calendar's integer column. */
const MAX_QTY = 1_000_000_000;

/** One validated row, trimmed to the accepted window (day numbers, inclusive). */
interface RowWrite {
  roomTypeId: number;
  from: number;
  to: number;
  value: AvailabilityValue;
}

/**
 * POST availability/updateAvailability (spec 4.8). The rows apply in order and a failing row answers its
 * message while every row before it stays applied (the legacy service had no batch transaction). So: in
 * one turn of the property's actor, resolve every row's room in one query, check the rows in order up to
 * the first failure, and write the valid ones before it through the calendar's availability writer (later
 * rows win per day and field, as applying them one by one did); then answer the failure, if any. The
 * property's mode is read inside that turn: a shadow property checks every row the same way and writes
 * nothing. The accepted window runs from yesterday to two years from today (property-local, counted as
 * PHP's `+2 years`): rows entirely outside are skipped silently, rows straddling it are trimmed.
 */
export async function updateAvailability({ deps, caller, body }: LegacyCall): Promise<Response> {
  const values = isArray(body) ? asList(body.values) : undefined;
  if (!values?.length) throw badRequest(m.badStructure);
  const failure = await deps.actors.run(caller.propertyId, async (tx) => {
    const property = await readCalendarProperty(tx, caller.propertyId);
    const today = localToday(property.timezone, deps.clock.now());
    const todayNumber = parseDay(today) as number;
    const window = { from: todayNumber - 1, to: phpAddYears(todayNumber, 2) };
    const rows = values.map((row) => (isArray(row) ? row : {}));
    const rooms = await resolveLegacyRooms(tx, caller, {
      roomIds: rows.map((r) => r.room_id),
      extRoomIds: rows.map((r) => r.ext_room_id),
    });
    const days = new DayRows<number, AvailabilityValue>(mergeAvailability);
    let failure: LegacyError | undefined;
    for (const [i, row] of values.entries()) {
      try {
        const write = checkRow(rooms, rows[i] as Record<string, unknown>, row, window);
        if (write) days.add(String(write.roomTypeId), write.roomTypeId, write.from, write.to, write.value);
      } catch (err) {
        if (!(err instanceof LegacyError)) throw err;
        failure = err;
        break;
      }
    }
    if (property.mode === 'live') {
      await writeAvailability(tx, days.within(window.from, window.to).inside, await legacyStamp(tx, today, property));
    }
    return failure;
  });
  if (failure) throw failure;
  return success();
}

/**
 * The set-time of every day a legacy call writes: today 05:00 property-local, as the legacy service
 * stamped it.
 */
export async function legacyStamp(tx: Db, today: string, property: { timezone: string }): Promise<Date> {
  const [row] = await tx.sql<{
    at: Date;
  }>`select (${today}::date + time '05:00') at time zone ${property.timezone} as at`;
  return (row as { at: Date }).at;
}

/** The row's checks in the legacy order; undefined when the row lies entirely outside the window. */
function checkRow(
  rooms: LegacyRooms,
  r: Record<string, unknown>,
  row: unknown,
  window: { from: number; to: number },
): RowWrite | undefined {
  // Only a numeric negative is "invalid qty"; anything else malformed fails the final params check.
  if (isSet(r.qty) && (looseNumber(r.qty) ?? 0) < 0) throw badRequest(m.invalidQty(row));
  if (!isSet(r.qty) && !isSet(r.opened) && !isSet(r.closed)) throw badRequest(m.missingQtyOrOpened(row));

  if (isSet(r.room_id) && isSet(r.ext_room_id)) throw badRequest(m.bothRoomIds(row));
  let roomTypeId: number | undefined;
  if (isSet(r.room_id)) {
    roomTypeId = rooms.byRoomId(r.room_id);
    if (roomTypeId === undefined) throw badRequest(m.roomNotFound(row));
  } else if (isSet(r.ext_room_id)) {
    roomTypeId = rooms.byExtRoomId(r.ext_room_id);
    if (roomTypeId === undefined) throw new LegacyError(404, m.extRoomNotFound(row));
  } else {
    throw badRequest(m.missingRoomId(row));
  }

  let from: number | undefined;
  let to: number | undefined;
  if (isSet(r.date)) {
    from = to = typeof r.date === 'string' ? parseDay(r.date) : undefined;
    if (from === undefined) throw badRequest(m.invalidDate(row));
  } else if (isSet(r.date_from) && isSet(r.date_to)) {
    from = typeof r.date_from === 'string' ? parseDay(r.date_from) : undefined;
    to = typeof r.date_to === 'string' ? parseDay(r.date_to) : undefined;
    if (from === undefined || to === undefined || from > to) throw badRequest(m.invalidRange(row));
  } else {
    throw badRequest(m.missingDates(row));
  }

  from = Math.max(from, window.from);
  to = Math.min(to as number, window.to);
  if (from > to) return undefined;

  const qty = isSet(r.qty) ? looseInt(r.qty) : null;
  const opened = isSet(r.opened) ? looseBool(r.opened) : null;
  const closed = isSet(r.closed) ? looseBool(r.closed) : null;
  const contradicts = opened !== null && closed !== null && opened === closed;
  if (
    qty === undefined ||
    (qty !== null && qty > MAX_QTY) ||
    opened === undefined ||
    closed === undefined ||
    contradicts
  )
    throw badRequest(m.invalidParams(row));
  return { roomTypeId, from, to, value: { free: qty, opened: opened ?? (closed === null ? null : !closed) } };
}
