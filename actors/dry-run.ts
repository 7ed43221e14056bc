import type { Db } from '../server/core/db/db.ts';

/** Carries a dry run's answer out of the savepoint it is rolled back with. */
class RolledBack<T> {
  constructor(readonly answer: T) {}
}

/**
 * A dry run: `work` runs for real against PostgreSQL inside the caller's actor turn (same transaction, same
 * lock, same re-read state), under a savepoint that is then rolled back whatever happens. Everything
 * `work` wrote, outbox events included, is undone before the turn goes on; its result (what it would have
 * done) is returned, and its error, if it fails, rethrown with the turn still usable. A savepoint rather
 * than a rolled-back turn because the decision to rehearse is made inside the turn, after re-reading the
 * property's mode. The lock is the turn's own transaction-scoped lock: released when the turn ends.
 */
export async function dryRun<T>(tx: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    await tx.savepoint(async (sp) => {
      throw new RolledBack(await work(sp));
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.answer as T;
    throw err;
  }
  throw new Error('unreachable: a dry run always rolls back');
}
