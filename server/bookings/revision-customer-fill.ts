import type { Db } from '../core/db/db.ts';

/**
 * Whether booking revisions still wait for `npm run revisions:customer-backfill` (migration 1260 left the filling of a
 * large table to it): until it has run, an account's feed reads as before, past other customers' revisions
 * (feed-account.ts). A start says so once (boot.ts), so an operator who missed the changelog learns it from the log.
 */
export async function revisionCustomerFillPending(db: Db): Promise<boolean> {
  const [row] = await db.sql<{ done: boolean }>`select done from booking_revision_customer_fill`;
  return row?.done === false;
}
