import { type HeldRooms, heldNight } from '../../actors/held-rooms.ts';
import { nightsOf } from './stay.ts';

/**
 * How bookings hold rooms against the calendar (table `availability`, spec 2.6: offered = the free rooms
 * the partner pushed + the booked count at push time; free = offered - booked).
 *
 * A booking only ever moves `booked`: creation adds its rooms for every night, cancellation and no-show
 * give them back, a modification moves the difference. `offered` belongs to the partner's pushes and is
 * never touched here, so a booking always lowers free rooms by exactly its quantity and a cancellation
 * raises them by exactly that quantity. A night nobody pushed yet gets a row with offered 0 (nothing for
 * sale) and the booked count; free is then negative, which is the honest figure: a later push of N free
 * rooms stores offered = N + booked and shows N. An overbooking likewise leaves free below zero rather
 * than inventing capacity, so cancelling one of two bookings for the last room frees nothing.
 */
export interface BookedLine {
  roomTypeId: number;
  qty: number;
  checkinDate: string;
  checkoutDate: string;
}

/** Booking statuses that occupy rooms; cancelled and no-show bookings hold nothing. */
const HOLDING = new Set(['requested', 'tentative', 'confirmed', 'checked_in', 'checked_out']);

export function holds(status: string): boolean {
  return HOLDING.has(status);
}

/** Rooms per (room type, night) that a booking in `status` with these lines occupies. */
export function heldNights(status: string, lines: readonly BookedLine[]): HeldRooms {
  const held: HeldRooms = new Map();
  if (!holds(status)) return held;
  for (const line of lines) {
    for (const night of nightsOf(line.checkinDate, line.checkoutDate)) {
      const key = heldNight(line.roomTypeId, night);
      held.set(key, (held.get(key) ?? 0) + line.qty);
    }
  }
  return held;
}
