import type { BookingRoomRow, BookingRow, RevisionPayload } from './snapshot.ts';

/** A guest as the booking functions take it (intake.ts for new bookings, lifecycle.ts for changes). */
export interface GuestInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

/** What every booking function answers (intake.ts, lifecycle.ts). */
export interface BookingResult {
  booking: BookingRow;
  /** The revision appended by this call; null when it changed nothing the feed carries. */
  revisionId: number | null;
  /** False when the call was a no-op (repeat cancel, a known channel reference, an identical modification). */
  changed: boolean;
}

/**
 * Cancel, no-show and room assignment read the booking's rooms once in their turn (cancel and no-show build
 * the snapshot once too) and hand them back, so the caller's view reads and builds nothing again. `snapshot`
 * is absent when the call built none.
 */
export interface ResultWithRooms extends BookingResult {
  rooms: readonly BookingRoomRow[];
  snapshot?: RevisionPayload;
}
