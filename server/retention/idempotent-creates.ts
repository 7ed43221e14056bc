import type { Db } from '../core/db/db.ts';
import { inBatches } from './batches.ts';

/**
 * Kept creates (idempotent_creates, migration 1040) older than `before`: past the Idempotency-Key's 24 hours a
 * retry is a new operation (spec 8.3.6), so the row answers nothing any more (a create meeting one replaces it).
 */
export function pruneIdempotentCreates(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  return inBatches(
    (batch) =>
      db.affected`
        delete from idempotent_creates where scope = any(array(
          select scope from idempotent_creates where created_at < ${before} order by created_at limit ${batch}))`,
    signal,
  );
}
