import type { Db } from '../../server/core/db/db.ts';
import type { LegacyCaller } from '../auth.ts';
import { success } from '../bytes.ts';
import { addDays, addYears, isDay, localToday } from '../calendar-days.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, LegacyError, messages } from '../messages.ts';
import { asList, isArray, isSet, looseBool, looseInt, looseNumber } from '../php-input.ts';
import { propertyRoomId, roomIdForExtRoom } from './rooms.ts';

const m = messages.updateAvailability;
/** Keeps offered = qty + booked inside the calendar's integer column. */
const MAX_QTY = 1_000_000_000;

/** One validated row, trimmed to the accepted window. */
interface RowWrite {
  roomTypeId: number;
  from: string;
  to: string;
  /** Free rooms the PMS sent; stored as offered = qty + booked. */
  qty: number | null;
  opened: boolean | null;
}

/**
 * POST availability/updateAvailability (spec 4.8). Rows are checked and applied one by one, each in its
 * own turn of the property's actor, so the first failing row answers its message while every row before
 * it stays applied (the legacy service had no batch transaction). The accepted window runs from yesterday
 * to two years from today (property-local): rows entirely outside are skipped silently, rows straddling it
 * are trimmed. On a shadow property every row is checked the same way and nothing is written.
 */
export async function updateAvailability({ deps, caller, body }: LegacyCall): Promise<Response> {
  const values = isArray(body) ? asList(body.values) : undefined;
  if (!values?.length) throw badRequest(m.badStructure);
  const today = localToday(caller.timezone, deps.clock.now());
  const window = { from: addDays(today, -1), to: addYears(today, 2) };
  for (const row of values) {
    const write = await checkRow(deps.db, caller, row, window);
    if (write && caller.mode === 'live')
      await deps.actors.run(caller.propertyId, (tx) => applyRow(tx, caller.timezone, today, write));
  }
  return success();
}

/** The row's checks in the legacy order; undefined when the row lies entirely outside the window. */
async function checkRow(
  db: Db,
  caller: LegacyCaller,
  row: unknown,
  window: { from: string; to: string },
): Promise<RowWrite | undefined> {
  const r = isArray(row) ? row : {};
  // Only a numeric negative is "invalid qty"; anything else malformed fails the final params check.
  if (isSet(r.qty) && (looseNumber(r.qty) ?? 0) < 0) throw badRequest(m.invalidQty(row));
  if (!isSet(r.qty) && !isSet(r.opened) && !isSet(r.closed)) throw badRequest(m.missingQtyOrOpened(row));

  if (isSet(r.room_id) && isSet(r.ext_room_id)) throw badRequest(m.bothRoomIds(row));
  let roomTypeId: number | undefined;
  if (isSet(r.room_id)) {
    roomTypeId = await propertyRoomId(db, caller.propertyId, r.room_id);
    if (roomTypeId === undefined) throw badRequest(m.roomNotFound(row));
  } else if (isSet(r.ext_room_id)) {
    roomTypeId = await roomIdForExtRoom(db, caller.keyId, caller.propertyId, r.ext_room_id);
    if (roomTypeId === undefined) throw new LegacyError(404, m.extRoomNotFound(row));
  } else {
    throw badRequest(m.missingRoomId(row));
  }

  let from: string;
  let to: string;
  if (isSet(r.date)) {
    if (!isDay(r.date)) throw badRequest(m.invalidDate(row));
    from = to = r.date;
  } else if (isSet(r.date_from) && isSet(r.date_to)) {
    if (!isDay(r.date_from) || !isDay(r.date_to) || r.date_from > r.date_to) throw badRequest(m.invalidRange(row));
    from = r.date_from;
    to = r.date_to;
  } else {
    throw badRequest(m.missingDates(row));
  }

  from = from < window.from ? window.from : from;
  to = to > window.to ? window.to : to;
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
  return { roomTypeId, from, to, qty, opened: opened ?? (closed === null ? null : !closed) };
}

/**
 * Writes the row's days. The set-time of every day written is today 05:00 property-local, as the legacy
 * service stamped it. A day without a calendar row gets one; only what the row carries changes.
 */
async function applyRow(tx: Db, timezone: string, today: string, w: RowWrite): Promise<void> {
  await tx.sql`
    insert into availability (room_type_id, date, offered, booked, opened, set_at)
    select ${w.roomTypeId}, d::date, coalesce(${w.qty}::int, 0), 0, coalesce(${w.opened}::boolean, true),
      (${today}::date + time '05:00') at time zone ${timezone}
    from generate_series(${w.from}::date, ${w.to}::date, interval '1 day') d
    on conflict (room_type_id, date) do update set
      offered = coalesce(${w.qty}::int + availability.booked, availability.offered),
      opened = coalesce(${w.opened}::boolean, availability.opened),
      set_at = excluded.set_at`;
}
