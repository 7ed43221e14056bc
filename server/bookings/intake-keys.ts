import type { Db } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';
import { KEEP_MS } from '../core/idempotency/idempotency.ts';
import type { BookingRow } from './snapshot.ts';

/**
 * Idempotency-Keys of booking creation (the operator intake, migration 0800; partner creation, 1020), kept in the
 * database in the booking's own transaction, not only in the request-level store: when the connection dies during
 * COMMIT the service cannot tell whether the booking exists, and only a record committed with it lets the retry
 * find it. A key is kept for its 24 hours (spec 8.3.6), dated by the service clock: past them it is a new operation, and
 * the retention pass deletes it (server/retention/booking-intake-keys.ts).
 */
export interface IntakeKey {
  /** Whose key space: the operator's header as sent, or a partner's key scoped to its client (the store's scope). */
  origin: 'operator' | 'partner';
  key: string;
  /** SHA-256 (hex) of the request body. */
  fingerprint: string;
}

/** The booking a key made within its 24 hours, or undefined; another body under the key: 409 idempotency_conflict. */
export async function bookingOfIntakeKey(
  tx: Db,
  intake: IntakeKey,
  now: Date,
): Promise<{ booking: BookingRow; keptAt: Date } | undefined> {
  const [kept] = await tx.sql<{ fingerprint: string; booking_id: number; created_at: Date }>`
    select fingerprint, booking_id, created_at from booking_intake_keys
    where origin = ${intake.origin} and key = ${intake.key} and created_at > ${new Date(now.getTime() - KEEP_MS)}`;
  if (!kept) return undefined;
  if (kept.fingerprint !== intake.fingerprint) throw new ApiError('errors.qc.idempotency_conflict');
  const [booking] = await tx.sql<BookingRow>`select * from bookings where id = ${kept.booking_id}`;
  return booking && { booking, keptAt: new Date(kept.created_at) };
}

/**
 * Records the key with the booking it made, at `now`; a row of the key older than its 24 hours is another
 * operation's and this one takes its place. The same key taken at the same moment for another property (two
 * actor turns) commits only once: the later one is a conflict and its booking rolls back.
 */
export async function keepIntakeKey(tx: Db, intake: IntakeKey, bookingId: number, now: Date): Promise<void> {
  const kept = await tx.sql`
    insert into booking_intake_keys (origin, key, fingerprint, booking_id, created_at)
    values (${intake.origin}, ${intake.key}, ${intake.fingerprint}, ${bookingId}, ${now})
    on conflict (origin, key) do update set fingerprint = excluded.fingerprint, booking_id = excluded.booking_id,
      created_at = excluded.created_at
    where booking_intake_keys.created_at <= ${new Date(now.getTime() - KEEP_MS)}
    returning key`;
  if (kept.length === 0) throw new ApiError('errors.qc.idempotency_conflict');
}
