import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import postgres from 'postgres';
import { postgresTarget } from './postgres-target.ts';

/**
 * postgres.js could hand one connection to two `sql.begin` transactions at once (porsager/postgres#823, #1204):
 * a BEGIN written while the connection's pipeline was full, or queued behind a busy connection, left the
 * connection unreserved, so the next BEGIN or plain statement ran inside a transaction that was not its own, and
 * one transaction's COMMIT committed the other's unfinished writes. Seen here as a 500 in bench:fairness (a storm
 * of 200 calendar pushes) with PostgreSQL's "there is already a transaction in progress". patches/postgres+3.4.9.patch
 * reserves the connection whenever BEGIN was written. A small pool with a short pipeline makes the race certain.
 */
describe.skipIf(!process.env.DATABASE_URL)('concurrent transactions on a busy pool', () => {
  let sql: postgres.Sql;
  // PostgreSQL's own word that a BEGIN arrived inside a transaction (SQLSTATE 25001).
  const warnings: string[] = [];

  beforeAll(() => {
    // The direct URL when DATABASE_URL is a transaction pooler (npm run test:pooler): this pool prepares its
    // statements, which a transaction pooler does not keep from one transaction to the next.
    const { url, host } = postgresTarget((process.env.DATABASE_SESSION_URL ?? process.env.DATABASE_URL) as string);
    // max_pipeline is a postgres.js option its types do not list.
    const options = {
      host,
      max: 3,
      max_pipeline: 2,
      onnotice: (n: postgres.Notice) => warnings.push(`${n.code} ${n.message}`),
    };
    sql = postgres(url, options as postgres.Options<Record<string, never>>);
  });
  afterAll(() => sql.end({ timeout: 1 }));

  it('runs each sql.begin on a connection of its own, and plain statements outside every transaction', async () => {
    for (let round = 0; round < 20; round++) {
      // execute() sends each at once, in this order (a postgres.js query is otherwise sent when first awaited):
      // every connection busy, then plain statements and transactions interleaved behind them.
      const busy = [1, 2, 3].map(() => sql`select pg_sleep(0.02)`.execute());
      const plain: Promise<{ xid: string | null }[]>[] = [];
      const transactions: Promise<(string | undefined)[]>[] = [];
      for (let i = 0; i < 6; i++) {
        plain.push(sql<{ xid: string | null }[]>`select txid_current_if_assigned()::text as xid`.execute());
        transactions.push(
          sql.begin(async (tx) => {
            const [first] = await tx<{ xid: string }[]>`select txid_current()::text as xid`;
            await tx`select pg_sleep(0.005)`;
            const [again] = await tx<{ xid: string }[]>`select txid_current()::text as xid`;
            return [first?.xid, again?.xid];
          }),
        );
      }
      const outcomes = await Promise.allSettled([...busy, ...plain, ...transactions]);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      expect({ round, failures, warnings }).toEqual({ round, failures: [], warnings: [] });
      const xids = (await Promise.all(transactions)).map(([first, again]) => {
        expect(again).toBe(first as string);
        return first;
      });
      // Two transactions on one connection would share one transaction id.
      expect(new Set(xids).size).toBe(6);
      // A plain statement inside someone's transaction would see its id assigned.
      expect((await Promise.all(plain)).map(([row]) => row?.xid ?? null)).toEqual(Array(6).fill(null));
    }
  });
});
