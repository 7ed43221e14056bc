import type { Db } from '../server/core/db/db.ts';

/**
 * A dry run: `work` runs for real against PostgreSQL inside the caller's actor turn (same transaction, same
 * lock, same re-read state), under a savepoint that is then rolled back whatever happens. Everything
 * `work` wrote, including outbox events, is undone before the turn goes on; its result (what it would have
 * done) is returned. A savepoint rather than a rolled-back turn because the decision to rehearse is made
 * inside the turn, after re-reading the property's mode, and the turn may still have real work to do.
 * The lock is the turn's own transaction-scoped lock: it is released when the turn ends, never later.
 * Nested dry runs are fine (PostgreSQL rolls back to the innermost savepoint of that name).
 */
export async function dryRun<T>(tx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  await tx.query('savepoint calendar_dry_run');
  try {
    return await work(tx);
  } finally {
    await tx.query('rollback to savepoint calendar_dry_run');
    await tx.query('release savepoint calendar_dry_run');
  }
}
