import type { Db } from '../core/db/db.ts';
import { type BookingRoomRow, type BookingRow, type RevisionPayload, roomsOfBookings, snapshotOf } from './snapshot.ts';

/**
 * A booking as partners see it (spec 2.7 "booking collection item"): the revision payload fields as the
 * booking stands now, plus `status`; additive: `inbound_booking_id` (what revisions carry),
 * `received_at` (what the inserted_* filters compare), `room_number` per room once assigned. Guest masked.
 */
export function bookingView(
  b: BookingRow,
  rooms: readonly BookingRoomRow[],
  snapshot: RevisionPayload = snapshotOf(b, rooms),
) {
  return {
    inbound_booking_id: b.id,
    ...snapshot,
    rooms: snapshot.rooms.map((r, i) => ({ ...r, room_number: rooms[i]?.room_number ?? null })),
    status: b.status,
    received_at: new Date(b.received_at).toISOString(),
  };
}

/** Views of many bookings with one query for all their rooms. */
export async function bookingViews(db: Db, bookings: readonly BookingRow[]) {
  if (!bookings.length) return [];
  const rooms = await roomsOfBookings(
    db,
    bookings.map((b) => b.id),
  );
  return bookings.map((b) =>
    bookingView(
      b,
      rooms.filter((r) => r.booking_id === b.id),
    ),
  );
}

export interface RevisionRow {
  id: number;
  booking_id: number;
  revision_type: string;
  created_at: Date;
  payload: Record<string, unknown>;
  external_property_id: string;
}

/** A feed item (spec 2.7); `external_property_id` is additive, so multi-property consumers can route it. */
export function revisionView(r: RevisionRow) {
  return {
    id: r.id,
    inbound_booking_id: r.booking_id,
    revision_type: r.revision_type,
    created_at: new Date(r.created_at).toISOString(),
    external_property_id: r.external_property_id,
    payload: r.payload,
  };
}
