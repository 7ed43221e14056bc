import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { recordEvent } from '../core/outbox.ts';
import { type BookingRow, bookingRooms, type RevisionPayload, snapshotOf } from './snapshot.ts';

export type RevisionType = 'created' | 'modified' | 'cancelled' | 'no_show' | 'confirmed';

/** Advisory-lock namespace for appending to a customer's part of the feed (property actors use 7210). */
const FEED_LOCK_NAMESPACE = 7211;

/**
 * Appends one revision (a frozen snapshot of the booking as it stands in `tx`) and records its outbox
 * event `booking.<type>`, in the caller's transaction. Call it LAST in the transaction.
 *
 * Why the lock: revision ids come from a sequence, and without it two transactions could commit out of id
 * order (id 11 visible before id 10), so a consumer resuming with `since=11` would skip 10 until its next
 * poll from 0. Holding a per-customer lock from taking the id until commit makes commit order equal id
 * order for every revision a consumer can see (an allow-list never crosses customers). Call it at the end
 * of the change: once it holds this lock the transaction only touches rows of its own property, already
 * serialized by the property actor, so it never waits on a transaction that waits for this lock.
 *
 * The revision carries its customer: an account's feed reads its range of (customer_id, id) (feed-account.ts).
 */
export async function appendRevision(
  deps: Deps,
  tx: Db,
  booking: BookingRow,
  type: RevisionType,
  customerId: number,
  /** The snapshot when the caller already built it from the rooms it read; built here otherwise. */
  snapshot?: RevisionPayload,
): Promise<number> {
  const payload = snapshot ?? snapshotOf(booking, await bookingRooms(tx, booking.id));
  await tx.sql`select pg_advisory_xact_lock(${FEED_LOCK_NAMESPACE}::int, ${customerId}::int)`;
  const [row] = await tx.sql<{ id: number }>`
    insert into booking_revisions (booking_id, property_id, customer_id, revision_type, payload, created_at)
    values (${booking.id}, ${booking.property_id}, ${customerId}, ${type}, ${payload}, ${deps.clock.now()})
    returning id`;
  if (!row) throw new Error('revision insert returned no row');
  await recordEvent(tx, {
    type: `booking.${type}`,
    customerId,
    propertyId: booking.property_id,
    data: bookingEventData(booking, row.id),
  });
  return row.id;
}

/** `data` of every booking event (spec 6.1). */
export function bookingEventData(booking: BookingRow, revisionId: number | null) {
  return {
    booking_id: booking.external_booking_id,
    revision_id: revisionId,
    checkin_date: booking.checkin_date,
    checkout_date: booking.checkout_date,
  };
}
