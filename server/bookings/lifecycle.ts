import { moveHeldRooms } from '../../actors/held-rooms.ts';
import { feeUnderSnapshot } from '../cancellation-policies/booking-fee.ts';
import { isDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, fieldError, notFound } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { BookingResult, GuestInput, ResultWithRooms } from './booking-result.ts';
import { lockBooking, propertyForBooking, propertyIdOfBooking } from './booking-rows.ts';
import { heldNights } from './holdings.ts';
import { bookedLines, linesOfRows, type RoomLineInput, resolveLines, sameLines, writeRooms } from './lines.ts';
import { BookingRefused, MODIFY_FAILED } from './refusal.ts';
import { appendRevision, bookingEventData, type RevisionType } from './revisions.ts';
import {
  type BookingRoomRow,
  type BookingRow,
  bookingRooms,
  type Cancellation,
  type RevisionPayload,
  snapshotOf,
} from './snapshot.ts';
import { nightCount } from './stay.ts';

/** A change of dates, guests, rooms, price or contact data (material), and/or the internal comment (not). */
export interface BookingChanges {
  checkinDate?: string;
  checkoutDate?: string;
  guest?: GuestInput;
  adults?: number;
  children?: number;
  rooms?: RoomLineInput[];
  totalPrice?: number;
  externalRevisionId?: ChannelRevisionReference;
  internalComment?: string | null;
}

/**
 * The channel's revision reference sent with a change (`revision_id` of an inbound delivery; null when the
 * delivery had none), which the revision the change appends carries. Undefined when the change does not come
 * from the channel (the hotelier, the operator): the booking keeps the reference it has.
 */
export type ChannelRevisionReference = string | null | undefined;

const referenceAfter = (b: BookingRow, sent: ChannelRevisionReference) =>
  sent === undefined ? b.external_revision_id : sent;

/**
 * Applies a modification. A material change (spec 3) updates the booking, moves the held rooms by the
 * difference and appends one `modified` revision with `booking.modified`, whatever the status. A change
 * of the internal comment alone is non-material: stored, no revision, no event. Values equal to the
 * current ones change nothing (a repeated modification is a no-op).
 */
export async function modifyBooking(deps: Deps, ref: BookingRef, changes: BookingChanges): Promise<BookingResult> {
  return inTurn(deps, ref, async (tx, b) => {
    const rows = await bookingRooms(tx, b.id);
    const current = linesOfRows(rows);
    const checkin = changes.checkinDate ?? b.checkin_date;
    const checkout = changes.checkoutDate ?? b.checkout_date;
    if (
      !isDay(checkin) ||
      !isDay(checkout) ||
      nightCount(checkin, checkout) < 1 ||
      nightCount(checkin, checkout) > 365
    ) {
      throw new BookingRefused('bad_dates', MODIFY_FAILED);
    }
    const total = changes.totalPrice ?? Number(b.total_amount);
    const lines = changes.rooms ? await resolveLines(tx, b.property_id, changes.rooms, total, MODIFY_FAILED) : current;
    const guest = {
      first: changes.guest?.firstName ?? b.guest_first_name,
      last: changes.guest?.lastName ?? b.guest_last_name,
      email: changes.guest?.email ?? b.guest_email,
      phone: changes.guest?.phone ?? b.guest_phone,
    };
    const adults = changes.adults ?? (changes.rooms ? lines.reduce((s, l) => s + l.adults, 0) : b.adults);
    const children = changes.children ?? (changes.rooms ? lines.reduce((s, l) => s + l.children, 0) : b.children);
    const material =
      checkin !== b.checkin_date ||
      checkout !== b.checkout_date ||
      !sameLines(lines, current) ||
      total.toFixed(2) !== Number(b.total_amount).toFixed(2) ||
      adults !== b.adults ||
      children !== b.children ||
      guest.first !== b.guest_first_name ||
      guest.last !== b.guest_last_name ||
      guest.email !== b.guest_email ||
      guest.phone !== b.guest_phone;
    const comment = changes.internalComment === undefined ? b.internal_comment : changes.internalComment;
    const commentChanged = comment !== b.internal_comment;

    if (!material) {
      if (!commentChanged) return { booking: b, revisionId: null, changed: false };
      const [updated] = await tx.sql<BookingRow>`
        update bookings set internal_comment = ${comment}, updated_at = ${deps.clock.now()} where id = ${b.id} returning *`;
      return { booking: updated as BookingRow, revisionId: null, changed: true };
    }

    const [updated] = await tx.sql<BookingRow>`
      update bookings set checkin_date = ${checkin}, checkout_date = ${checkout}, guest_first_name = ${guest.first},
        guest_last_name = ${guest.last}, guest_email = ${guest.email}, guest_phone = ${guest.phone}, adults = ${adults},
        children = ${children}, total_amount = ${total}, internal_comment = ${comment},
        external_revision_id = ${referenceAfter(b, changes.externalRevisionId)},
        updated_at = ${deps.clock.now()}
      where id = ${b.id} returning *`;
    const booking = updated as BookingRow;
    await writeRooms(tx, b.id, rows, lines, checkin, checkout);
    await moveHeldRooms(
      tx,
      heldNights(b.status, bookedLines(current, b.checkin_date, b.checkout_date)),
      heldNights(booking.status, bookedLines(lines, checkin, checkout)),
    );
    return { booking, revisionId: await revise(deps, tx, booking, 'modified'), changed: true };
  });
}

/** The non-material edit (spec 3): the internal comment; never a revision or an event. */
export async function editBookingComment(deps: Deps, ref: BookingRef, comment: string | null): Promise<BookingResult> {
  return modifyBooking(deps, ref, { internalComment: comment });
}

/**
 * tentative -> confirmed with a `confirmed` revision. Confirming a booking that is already confirmed (or
 * checked in/out) is a no-op; a cancelled or no-show booking cannot be confirmed (409).
 */
export async function confirmBooking(
  deps: Deps,
  ref: BookingRef,
  externalRevisionId?: ChannelRevisionReference,
): Promise<BookingResult> {
  return inTurn(deps, ref, async (tx, b) => {
    if (b.status === 'cancelled' || b.status === 'no_show') throw new ApiError('errors.qc.booking_not_confirmable');
    if (b.status !== 'tentative' && b.status !== 'requested') return { booking: b, revisionId: null, changed: false };
    const [updated] = await tx.sql<BookingRow>`
      update bookings set status = 'confirmed', external_revision_id = ${referenceAfter(b, externalRevisionId)},
        updated_at = ${deps.clock.now()}
      where id = ${b.id} returning *`;
    const booking = updated as BookingRow;
    return { booking, revisionId: await revise(deps, tx, booking, 'confirmed'), changed: true };
  });
}

export interface CancelInput {
  cancelledBy: Cancellation['cancelled_by'];
  reasonCode: string;
  /** The fee charged; omitted, it is what the snapshot's cancellation policy charges today. */
  feeCharged?: number;
  externalRevisionId?: ChannelRevisionReference;
}

/**
 * Cancels from any state: releases the held rooms, stores the cancellation block (who, why, the policy
 * snapshot taken when the booking was made, the fee) and appends the `cancelled` revision. Cancelling a
 * cancelled booking is a no-op.
 */
export async function cancelBooking(deps: Deps, ref: BookingRef, input: CancelInput): Promise<ResultWithRooms> {
  return inTurn(deps, ref, async (tx, b) => {
    const rooms = await bookingRooms(tx, b.id);
    if (b.status === 'cancelled') return { booking: b, revisionId: null, changed: false, rooms };
    const now = deps.clock.now();
    const cancellation: Cancellation = {
      cancelled_at: now.toISOString(),
      cancelled_by: input.cancelledBy,
      reason_code: input.reasonCode,
      policy_snapshot: b.policy_snapshot,
      fee_charged: input.feeCharged ?? (await feeUnderSnapshot(tx, b, now)),
    };
    return release(
      deps,
      tx,
      b,
      rooms,
      'cancelled',
      await tx.sql<BookingRow>`
      update bookings set status = 'cancelled', cancelled_at = ${now}, cancellation = ${cancellation},
        external_revision_id = ${referenceAfter(b, input.externalRevisionId)}, updated_at = ${now}
      where id = ${b.id} returning *`,
    );
  });
}

/** Records a no-show from any state: releases the held rooms, appends `no_show`. A repeat is a no-op. */
export async function recordNoShow(deps: Deps, ref: BookingRef): Promise<ResultWithRooms> {
  return inTurn(deps, ref, async (tx, b) => {
    const rooms = await bookingRooms(tx, b.id);
    if (b.status === 'no_show') return { booking: b, revisionId: null, changed: false, rooms };
    const now = deps.clock.now();
    return release(
      deps,
      tx,
      b,
      rooms,
      'no_show',
      await tx.sql<BookingRow>`
      update bookings set status = 'no_show', no_show_at = ${now}, updated_at = ${now} where id = ${b.id} returning *`,
    );
  });
}

/** Releases the held rooms of a booking leaving for `type`; its room lines do not change, so `rooms` stays true. */
async function release(
  deps: Deps,
  tx: Db,
  before: BookingRow,
  rooms: readonly BookingRoomRow[],
  type: RevisionType,
  [updated]: BookingRow[],
): Promise<ResultWithRooms> {
  const booking = updated as BookingRow;
  const lines = bookedLines(linesOfRows(rooms), before.checkin_date, before.checkout_date);
  await moveHeldRooms(tx, heldNights(before.status, lines), heldNights(booking.status, lines));
  const snapshot = snapshotOf(booking, rooms);
  return { booking, revisionId: await revise(deps, tx, booking, type, snapshot), changed: true, rooms, snapshot };
}

export interface RoomAssignment {
  /** booking_rooms.id; may be omitted when the booking has exactly one room line. */
  bookingItemId?: number;
  roomNumber: string;
  selfCheckinCode?: string | null;
}

/**
 * Stores the physical room number and self-check-in code on a booking's room line and records
 * `booking.assigned` (informational: no revision, the feed snapshot does not change).
 */
export async function assignRoom(deps: Deps, ref: BookingRef, input: RoomAssignment): Promise<ResultWithRooms> {
  return inTurn(deps, ref, async (tx, b) => {
    const items = await bookingRooms(tx, b.id);
    if (input.bookingItemId === undefined && items.length > 1)
      throw fieldError('booking', 'booking_item_id', 'required');
    const item = input.bookingItemId === undefined ? items[0] : items.find((i) => i.id === input.bookingItemId);
    if (!item) throw notFound();
    await tx.sql`update booking_rooms set room_number = ${input.roomNumber}, self_checkin_code = ${input.selfCheckinCode ?? null}
      where id = ${item.id}`;
    const property = await propertyForBooking(tx, b.property_id);
    const [last] = await tx.sql<{ id: number }>`select max(id) as id from booking_revisions where booking_id = ${b.id}`;
    await recordEvent(tx, {
      type: 'booking.assigned',
      customerId: property?.customer_id as number,
      propertyId: b.property_id,
      data: bookingEventData(b, last?.id ?? null),
    });
    const rooms = items.map((i) => (i.id === item.id ? { ...i, room_number: input.roomNumber } : i));
    return { booking: b, revisionId: null, changed: true, rooms };
  });
}

async function revise(
  deps: Deps,
  tx: Db,
  booking: BookingRow,
  type: RevisionType,
  snapshot?: RevisionPayload,
): Promise<number> {
  const property = await propertyForBooking(tx, booking.property_id);
  return appendRevision(deps, tx, booking, type, property?.customer_id as number, snapshot);
}

/**
 * A booking by internal id, or a row that already names its property (any BookingRow): the latter also
 * works for a booking created earlier in the same, still uncommitted, actor turn.
 */
export type BookingRef = number | { id: number; property_id: number };

/** Runs `work` in the booking's property turn with the booking row locked. */
async function inTurn<R extends BookingResult>(
  deps: Deps,
  ref: BookingRef,
  work: (tx: Db, booking: BookingRow) => Promise<R>,
): Promise<R> {
  const id = typeof ref === 'number' ? ref : ref.id;
  const propertyId = typeof ref === 'number' ? await propertyIdOfBooking(deps.db, ref) : ref.property_id;
  return deps.actors.run(propertyId, async (tx) => work(tx, await lockBooking(tx, id)));
}
