import type { Db } from '../core/db/db.ts';

/**
 * How many rows of `relation` what `fn` runs in `tx` read (sequential scans' rows and index scans' fetches, kept or
 * filtered out): the transaction's own statistics, which PostgreSQL keeps live. To pin that a read stays bounded
 * (a page of an account, a narrowed allow-list) however large the table around it grows.
 */
export async function rowsRead(tx: Db, relation: string, fn: () => Promise<unknown>): Promise<number> {
  const read = async () => {
    const [row] = await tx.sql<{ n: number }>`
      select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as n from pg_stat_xact_user_tables
      where relname = ${relation}`;
    return row?.n ?? 0;
  };
  const before = await read();
  await fn();
  return (await read()) - before;
}
