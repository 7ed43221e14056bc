import { moveHeldRooms } from '../../actors/held-rooms.ts';
import { FIRST_GENERATED_BOOKING_ID } from '../core/booking-ids.ts';
/**
 * server/bookings/intake.ts: the booking domain API. Every way a booking is born or changes goes through
 * these functions (operator intake, partner creation, inbound channel webhooks, the demo, the legacy
 * facade's tests): create, seed silently, modify, non-material edit, confirm, cancel, no-show, room
 * assignment. Each runs in its property's actor turn (`deps.actors.run`: serialized per property, one
 * transaction) and, in that one transaction, changes the booking rows, moves `availability.booked` for
 * every (room type, night) it holds (rule in holdings.ts), appends at most one revision (a frozen
 * snapshot, spec 2.7) and records at most one outbox event `booking.<type>`. Nothing half-done commits.
 */

import { isDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { SqlState, sqlState } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { idempotencyReplays } from '../core/metrics.ts';
import { assertBookable } from './bookability.ts';
import type { BookingResult, GuestInput } from './booking-result.ts';
import { type BookingProperty, propertyForBooking } from './booking-rows.ts';
import { isChannel } from './channels.ts';
import { heldNights } from './holdings.ts';
import { bookingOfIntakeKey, type IntakeKey, keepIntakeKey } from './intake-keys.ts';
import { bookedLines, type ResolvedLine, type RoomLineInput, resolveLines, writeRooms } from './lines.ts';
import { policySnapshot } from './policy-snapshot.ts';
import { BookingRefused, CREATE_FAILED } from './refusal.ts';
import { appendRevision } from './revisions.ts';
import type { BookingRow, BookingStatus } from './snapshot.ts';
import { nightCount } from './stay.ts';

export type { BookingResult, GuestInput } from './booking-result.ts';
export {
  assignRoom,
  type BookingChanges,
  type BookingRef,
  type CancelInput,
  cancelBooking,
  confirmBooking,
  editBookingComment,
  modifyBooking,
  type RoomAssignment,
  recordNoShow,
} from './lifecycle.ts';
export type { RoomLineInput } from './lines.ts';
export { BookingRefused } from './refusal.ts';

const MAX_NIGHTS = 365;

export interface NewBooking {
  /** Internal property id. */
  propertyId: number;
  /** Source channel code (channels.ts). */
  channel: string;
  guest: GuestInput;
  checkinDate: string;
  checkoutDate: string;
  rooms: RoomLineInput[];
  totalPrice: number;
  /** Defaults to the property's currency. */
  currency?: string;
  /** Adults / children of the whole booking; default the sum over the rooms. */
  adults?: number;
  children?: number;
  /** Taken as `tentative` (awaiting confirmation) instead of `confirmed`. */
  tentative?: boolean;
  /** Explicit booking id, only below FIRST_GENERATED_BOOKING_ID (old-generation bookings, tests). */
  id?: number;
  /** Defaults to the booking id as a string. */
  externalBookingId?: string;
  externalRevisionId?: string | null;
  /** The channel's own reservation reference: the same one twice on a property and channel is one booking. */
  channelReference?: string | null;
  internalComment?: string | null;
  processingState?: string;
  /** The agency behind a B2B booking. */
  agency?: { name: string; reference?: string; iata_code?: string } | null;
}

export interface CreateOptions {
  /** Partner-originated creation: refuse when the calendar has no room or the dates are closed. */
  checkAvailability?: boolean;
  /** Partner-originated creation: refuse on a shadow property (nothing is written while shadow). */
  requireLive?: boolean;
  /** The request's Idempotency-Key: a booking it already made is returned unchanged (intake-keys.ts). */
  intakeKey?: IntakeKey;
}

export interface CreatedBooking extends BookingResult {
  /** Set when the Idempotency-Key had already made this booking: when that key was kept (its replay's time). */
  keptAt?: Date;
}

/**
 * Takes a new booking: inserts it with its rooms, holds the rooms, appends the `created` revision and
 * records `booking.created`. A channel reference already known on this property and channel returns that
 * booking unchanged (a retried delivery never makes a second booking).
 */
export async function createBooking(
  deps: Deps,
  input: NewBooking,
  options: CreateOptions = {},
): Promise<CreatedBooking> {
  const created = await deps.actors.run(input.propertyId, async (tx): Promise<CreatedBooking> => {
    const property = await propertyForBooking(tx, input.propertyId);
    if (!property) throw new BookingRefused('unknown_property');
    const now = deps.clock.now();
    const kept = options.intakeKey && (await bookingOfIntakeKey(tx, options.intakeKey, now));
    if (kept) return { booking: kept.booking, revisionId: null, changed: false, keptAt: kept.keptAt };
    const known = await byChannelReference(tx, property.id, input.channel, input.channelReference);
    if (known) return { booking: known, revisionId: null, changed: false };
    const lines = await checkedLines(tx, property, input);
    if (options.requireLive && property.mode !== 'live') throw new BookingRefused('property_not_live');
    if (options.checkAvailability) await assertBookable(tx, property.id, lines, input.checkinDate, input.checkoutDate);
    const status: BookingStatus = input.tentative ? 'tentative' : 'confirmed';
    const booking = await insertBooking(deps, tx, property, input, lines, status, false);
    await moveHeldRooms(tx, new Map(), heldNights(status, bookedLines(lines, input.checkinDate, input.checkoutDate)));
    const revisionId = await appendRevision(deps, tx, booking, 'created', property.customer_id);
    if (options.intakeKey) await keepIntakeKey(tx, options.intakeKey, booking.id, now);
    return { booking, revisionId, changed: true };
  });
  // A key kept with its booking answers a retry the idempotency store lost (both APIs' intakes): a replay all the
  // same. Counted once the turn is over, so a turn run again is not counted twice.
  if (created.keptAt) idempotencyReplays.inc();
  return created;
}

export interface SeedBooking extends NewBooking {
  /** Historical bookings may arrive in any state; default confirmed. */
  status?: BookingStatus;
}

/**
 * Silent seeding (spec 3): bookings that exist when a property is first connected are imported without
 * revisions or events, but they do hold their rooms (a seeded confirmed booking occupies the calendar like
 * any other). Bookings whose external id or channel reference is already known are skipped, so a seed can
 * be re-run. Returns the bookings inserted.
 */
export async function seedBookings(
  deps: Deps,
  propertyId: number,
  inputs: readonly SeedBooking[],
): Promise<BookingRow[]> {
  return deps.actors.run(propertyId, async (tx) => {
    const property = await propertyForBooking(tx, propertyId);
    if (!property) throw new BookingRefused('unknown_property');
    const inserted: BookingRow[] = [];
    for (const input of inputs) {
      if (await byChannelReference(tx, property.id, input.channel, input.channelReference)) continue;
      if (input.externalBookingId) {
        const [known] = await tx.sql`select 1 from bookings where external_booking_id = ${input.externalBookingId}`;
        if (known) continue;
      }
      const lines = await checkedLines(tx, property, { ...input, propertyId });
      const status = input.status ?? (input.tentative ? 'tentative' : 'confirmed');
      const booking = await insertBooking(deps, tx, property, input, lines, status, true);
      await moveHeldRooms(tx, new Map(), heldNights(status, bookedLines(lines, input.checkinDate, input.checkoutDate)));
      inserted.push(booking);
    }
    return inserted;
  });
}

async function checkedLines(tx: Db, property: BookingProperty, input: NewBooking): Promise<ResolvedLine[]> {
  if (!isChannel(input.channel)) throw new BookingRefused('unknown_channel');
  const { checkinDate: from, checkoutDate: to } = input;
  if (!isDay(from) || !isDay(to) || nightCount(from, to) < 1 || nightCount(from, to) > MAX_NIGHTS) {
    throw new BookingRefused('bad_dates');
  }
  if (
    input.id !== undefined &&
    !(Number.isInteger(input.id) && input.id > 0 && input.id < FIRST_GENERATED_BOOKING_ID)
  ) {
    throw new BookingRefused('duplicate_booking_id');
  }
  return resolveLines(tx, property.id, input.rooms, input.totalPrice, CREATE_FAILED);
}

async function byChannelReference(tx: Db, propertyId: number, channel: string, reference: string | null | undefined) {
  if (!reference) return undefined;
  const [row] = await tx.sql<BookingRow>`
    select * from bookings where property_id = ${propertyId} and source_channel = ${channel} and channel_reference = ${reference}`;
  return row;
}

async function insertBooking(
  deps: Deps,
  tx: Db,
  property: BookingProperty,
  input: NewBooking,
  lines: readonly ResolvedLine[],
  status: BookingStatus,
  seeded: boolean,
): Promise<BookingRow> {
  const now = deps.clock.now();
  const first = lines[0] as ResolvedLine;
  const policy = await policySnapshot(tx, first.ratePlanId, now);
  const [next] = await tx.sql<{
    id: number;
  }>`select coalesce(${input.id ?? null}::bigint, nextval('bookings_id_seq')) as id`;
  const id = next?.id as number;
  const g = input.guest;
  let booking: BookingRow | undefined;
  try {
    [booking] = await tx.sql<BookingRow>`
      insert into bookings (id, property_id, external_booking_id, external_revision_id, channel_reference, source_channel, status,
        guest_first_name, guest_last_name, guest_email, guest_phone, checkin_date, checkout_date, adults, children,
        currency_code, total_amount, processing_state, internal_comment, policy_snapshot, seeded, agency, received_at, updated_at)
      values (${id}, ${property.id}, ${input.externalBookingId ?? String(id)}, ${input.externalRevisionId ?? null},
        ${input.channelReference ?? null}, ${input.channel}, ${status}, ${g.firstName ?? ''}, ${g.lastName ?? ''},
        ${g.email ?? ''}, ${g.phone ?? ''}, ${input.checkinDate}, ${input.checkoutDate},
        ${input.adults ?? lines.reduce((s, l) => s + l.adults, 0)}, ${input.children ?? lines.reduce((s, l) => s + l.children, 0)},
        ${input.currency ?? property.currency}, ${input.totalPrice}, ${input.processingState ?? 'processed'},
        ${input.internalComment ?? null}, ${policy}, ${seeded}, ${input.agency ?? null}, ${now}, ${now})
      returning *`;
  } catch (err) {
    if (sqlState(err) === SqlState.uniqueViolation) throw new BookingRefused('duplicate_booking_id');
    throw err;
  }
  if (!booking) throw new ApiError('errors.internal_error');
  await writeRooms(tx, booking.id, [], lines, input.checkinDate, input.checkoutDate);
  return booking;
}
