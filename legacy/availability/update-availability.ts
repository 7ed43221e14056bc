import type { AvailabilityValue } from '../../actors/availability-writes.ts';
import { type CalendarOutcome, type WriteFigures, writeCalendar } from '../../actors/calendar-write.ts';
import type { StagedAvailabilityRow, StagedStop } from '../../actors/staged-availability-rows.ts';
import { parseDay } from '../../server/core/days.ts';
import { legacyResponse, SUCCESS, success } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, LegacyError, messages } from '../messages.ts';
import { asList, isArray, isSet, looseBool, looseInt, looseNumber, type PhpArray } from '../php-input.ts';
import { type LegacyRooms, resolveLegacyRooms } from './rooms.ts';

const m = messages.updateAvailability;
/** Keeps offered = qty + booked inside the calendar's integer column. */
const MAX_QTY = 1_000_000_000;

/**
 * POST availability/updateAvailability (spec 4.8). The rows apply in order and a failing row answers its
 * message while every row before it stays applied (the legacy service had no batch transaction). So: the
 * rows' rooms are looked up in one query, each row is read into what it writes and, stage by stage, what it
 * fails with, and the calendar's one write (actors/calendar-write.ts) takes them in one turn of the
 * property's actor: rows in order up to the first failure, written together (later rows win per day and
 * field, as applying them one by one did); then the failure, if any, is answered. The property's mode is
 * read inside that turn: a shadow property runs the same write as a dry run, rolled back, and the outcome
 * says what it would have written (`would`), as for the modern pushes. The accepted window runs from
 * yesterday to two years from today (property-local, counted as PHP's `+2 years`): rows entirely outside
 * are skipped silently (their values unchecked), rows straddling it are trimmed.
 */
export async function updateAvailability(call: LegacyCall): Promise<Response> {
  const { stop, counters } = await writeLegacyAvailability(call);
  if (stop) throw stopError(stop, call.body);
  return counters.would ? legacyResponse(200, SUCCESS, { [WOULD_HEADER]: wouldHeader(counters.would) }) : success();
}

/**
 * A dry run's answer (a shadow property, the cutover's shadow comparison, `X-Qc-Dry-Run: 1`) says what the
 * write would have written, as the modern pushes' `would` does, in a header beside the legacy bytes:
 * `X-Qc-Would: written=3, unchanged=0, skipped_out_of_window=1`.
 */
export const WOULD_HEADER = 'X-Qc-Would';

function wouldHeader(would: WriteFigures): string {
  return `written=${would.written}, unchanged=${would.unchanged}, skipped_out_of_window=${would.skipped_out_of_window}`;
}

/** The write behind updateAvailability, with its outcome: counters (`would` when shadow) and where it stopped. */
export async function writeLegacyAvailability({
  deps,
  caller,
  body,
}: Pick<LegacyCall, 'deps' | 'caller' | 'body'>): Promise<CalendarOutcome> {
  const rows = rowsOf(body);
  const rooms = await resolveLegacyRooms(deps.db, caller, {
    roomIds: rows.map((r) => r.room_id),
    extRoomIds: rows.map((r) => r.ext_room_id),
  });
  return writeCalendar(deps, caller.propertyId, {
    kind: 'legacy-availability',
    rows: rows.map((r) => stagedRow(rooms, r)),
  });
}

function rowsOf(body: unknown): PhpArray[] {
  const values = isArray(body) ? asList(body.values) : undefined;
  if (!values?.length) throw badRequest(m.badStructure);
  return values.map((row) => (isArray(row) ? row : {}));
}

/** The message of the row the write stopped at, in the legacy order of checks. */
function stopError(stop: StagedStop, body: unknown): LegacyError {
  const row = (isArray(body) ? asList(body.values) : undefined)?.[stop.row];
  const r = rowsOf(body)[stop.row] as PhpArray;
  if (stop.stage === 'refused') return refusal(r, row) as LegacyError;
  if (stop.stage === 'unknown_room')
    return isSet(r.room_id) ? badRequest(m.roomNotFound(row)) : new LegacyError(404, m.extRoomNotFound(row));
  if (stop.stage === 'bad_dates') return datesOf(r, row) as LegacyError;
  return badRequest(m.invalidParams(row));
}

/** The row's checks in the legacy order, as the stages the actor applies (actors/staged-availability-rows.ts). */
function stagedRow(rooms: LegacyRooms, r: PhpArray): StagedAvailabilityRow {
  if (refusal(r, r)) return { refused: true };
  const roomTypeId = isSet(r.room_id) ? rooms.byRoomId(r.room_id) : rooms.byExtRoomId(r.ext_room_id);
  const dates = datesOf(r, r);
  if (dates instanceof LegacyError) return { roomTypeId };
  return { roomTypeId, ...dates, ...rowValue(r) };
}

/** What fails before the room is looked up. Only a numeric negative is "invalid qty"; other junk fails later. */
function refusal(r: PhpArray, row: unknown): LegacyError | undefined {
  if (isSet(r.qty) && (looseNumber(r.qty) ?? 0) < 0) return badRequest(m.invalidQty(row));
  if (!isSet(r.qty) && !isSet(r.opened) && !isSet(r.closed)) return badRequest(m.missingQtyOrOpened(row));
  if (isSet(r.room_id) && isSet(r.ext_room_id)) return badRequest(m.bothRoomIds(row));
  if (!isSet(r.room_id) && !isSet(r.ext_room_id)) return badRequest(m.missingRoomId(row));
  return undefined;
}

function datesOf(r: PhpArray, row: unknown): { from: number; to: number } | LegacyError {
  const day = (value: unknown) => (typeof value === 'string' ? parseDay(value) : undefined);
  if (isSet(r.date)) {
    const from = day(r.date);
    return from === undefined ? badRequest(m.invalidDate(row)) : { from, to: from };
  }
  if (isSet(r.date_from) && isSet(r.date_to)) {
    const from = day(r.date_from);
    const to = day(r.date_to);
    return from === undefined || to === undefined || from > to ? badRequest(m.invalidRange(row)) : { from, to };
  }
  return badRequest(m.missingDates(row));
}

/** The row's value; none when qty, opened or closed is malformed, or opened and closed contradict. */
function rowValue(r: PhpArray): { value?: AvailabilityValue } {
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
    return {};
  return { value: { free: qty, opened: opened ?? (closed === null ? null : !closed) } };
}
