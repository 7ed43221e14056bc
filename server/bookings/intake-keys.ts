import type { Db } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { BookingRow } from './snapshot.ts';

/**
 * Idempotency-Keys of the operator booking intake, kept in the database in the booking's own transaction
 * (migration 0800), not in the request-level store: when the connection dies during COMMIT the service cannot
 * tell whether the booking exists, and only a record committed with it lets the retry find it.
 */
export interface IntakeKey {
  key: string;
  /** SHA-256 (hex) of the request body. */
  fingerprint: string;
}

/** The booking a key already made, or undefined; another body under the key: 409 idempotency_conflict. */
export async function bookingOfIntakeKey(tx: Db, intake: IntakeKey): Promise<BookingRow | undefined> {
  const [kept] = await tx.sql<{ fingerprint: string; booking_id: number }>`
    select fingerprint, booking_id from booking_intake_keys where key = ${intake.key}`;
  if (!kept) return undefined;
  if (kept.fingerprint !== intake.fingerprint) throw new ApiError('errors.qc.idempotency_conflict');
  const [booking] = await tx.sql<BookingRow>`select * from bookings where id = ${kept.booking_id}`;
  return booking;
}

/**
 * Records the key with the booking it made. The same key taken at the same moment for another property (two
 * actor turns) commits only once: the later one is a conflict and its booking rolls back.
 */
export async function keepIntakeKey(tx: Db, intake: IntakeKey, bookingId: number): Promise<void> {
  const kept = await tx.sql`
    insert into booking_intake_keys (key, fingerprint, booking_id) values (${intake.key}, ${intake.fingerprint}, ${bookingId})
    on conflict (key) do nothing returning key`;
  if (kept.length === 0) throw new ApiError('errors.qc.idempotency_conflict');
}
