import type { Db } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { BookingRow } from './snapshot.ts';

/**
 * Idempotency-Keys of booking creation (the operator intake, migration 0800; partner creation, 1020), kept in the
 * database in the booking's own transaction, not only in the request-level store: when the connection dies during
 * COMMIT the service cannot tell whether the booking exists, and only a record committed with it lets the retry
 * find it.
 */
export interface IntakeKey {
  /** Whose key space: the operator's header as sent, or a partner's key scoped to its client (the store's scope). */
  origin: 'operator' | 'partner';
  key: string;
  /** SHA-256 (hex) of the request body. */
  fingerprint: string;
}

/** The booking a key already made, or undefined; another body under the key: 409 idempotency_conflict. */
export async function bookingOfIntakeKey(
  tx: Db,
  intake: IntakeKey,
): Promise<{ booking: BookingRow; keptAt: Date } | undefined> {
  const [kept] = await tx.sql<{ fingerprint: string; booking_id: number; created_at: Date }>`
    select fingerprint, booking_id, created_at from booking_intake_keys
    where origin = ${intake.origin} and key = ${intake.key}`;
  if (!kept) return undefined;
  if (kept.fingerprint !== intake.fingerprint) throw new ApiError('errors.qc.idempotency_conflict');
  const [booking] = await tx.sql<BookingRow>`select * from bookings where id = ${kept.booking_id}`;
  return booking && { booking, keptAt: new Date(kept.created_at) };
}

/**
 * Records the key with the booking it made. The same key taken at the same moment for another property (two
 * actor turns) commits only once: the later one is a conflict and its booking rolls back.
 */
export async function keepIntakeKey(tx: Db, intake: IntakeKey, bookingId: number): Promise<void> {
  const kept = await tx.sql`
    insert into booking_intake_keys (origin, key, fingerprint, booking_id)
    values (${intake.origin}, ${intake.key}, ${intake.fingerprint}, ${bookingId})
    on conflict (origin, key) do nothing returning key`;
  if (kept.length === 0) throw new ApiError('errors.qc.idempotency_conflict');
}
