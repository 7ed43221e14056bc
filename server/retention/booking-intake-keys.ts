import type { Db } from '../core/db/db.ts';
import { inBatches } from './batches.ts';

/**
 * Booking intake keys (booking_intake_keys, migrations 0800 and 1020) older than `before`: past the
 * Idempotency-Key's 24 hours a retry is a new operation (spec 8.3.6), so the row answers nothing any more (a
 * booking meeting one replaces it). Oldest first, on the index of migration 1250.
 */
export function pruneBookingIntakeKeys(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  return inBatches(
    (batch) =>
      db.affected`
        delete from booking_intake_keys where (origin, key) in (
          select origin, key from booking_intake_keys where created_at < ${before} order by created_at limit ${batch})`,
    signal,
  );
}
