import type { Db } from '../server/core/db/db.ts';

/**
 * The dry run's transaction as code written against `deps.db` expects a database: its own transactions
 * (`db.tx`, as ackBooking and postRoomAssignment open) become savepoints inside the dry run, so everything they
 * write is rolled back with it; closing it is refused. With `actors.dryRun` this extends the dry run from
 * calendar pushes to any legacy method (bookings, revisions, customer events, the PMS's property data).
 */
export function dryRunDb(tx: Db): Db {
  return {
    kind: tx.kind,
    sql: <T>(strings: TemplateStringsArray, ...values: unknown[]) => tx.sql<T>(strings, ...values),
    query: <T>(text: string, params?: unknown[]) => tx.query<T>(text, params),
    affected: (strings: TemplateStringsArray, ...values: unknown[]) => tx.affected(strings, ...values),
    tx: <T>(fn: (db: Db) => Promise<T>) => tx.savepoint((sp) => fn(dryRunDb(sp))),
    savepoint: <T>(fn: (db: Db) => Promise<T>) => tx.savepoint((sp) => fn(dryRunDb(sp))),
    listen: () => Promise.reject(new Error('a dry run cannot listen')),
    notify: () => Promise.reject(new Error('a dry run cannot notify')),
    close: () => Promise.reject(new Error('a dry run cannot close the database')),
    closed: () => false,
  };
}
