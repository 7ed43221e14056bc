import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { type Db, type Row, toQuery } from './db.ts';

const parsers = {
  [types.INT8]: (x: string) => Number(x),
  [types.NUMERIC]: (x: string) => Number(x),
  [types.DATE]: (x: string) => x,
};

interface Queryable {
  /** `affectedRows`: the rows the statement inserted, updated or deleted, from its command tag. */
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
}

/**
 * PGlite runs on this thread and answers through promises alone, so a chain of statements (the demo's seeding, a
 * retention pass) never let the event loop read the network: a request that came in meanwhile, /healthz included,
 * waited for the whole chain (0.3-1.2 s at a first start). A turn of the event loop after each statement answers it
 * between two statements instead.
 */
const aTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function wrap(pg: Queryable, root: PGlite | undefined): Db {
  const run = async <T>(text: string, params: unknown[] = []) => {
    const answer = await pg.query<T>(text, params);
    await aTurnOfTheEventLoop();
    return answer;
  };
  const query = async <T>(text: string, params?: unknown[]) => (await run<T>(text, params)).rows;
  return {
    kind: 'pglite',
    query,
    sql: <T = Row>(strings: TemplateStringsArray, ...values: unknown[]) => query<T>(...toQuery(strings, values)),
    affected: async (strings: TemplateStringsArray, ...values: unknown[]) =>
      (await run(...toQuery(strings, values))).affectedRows ?? 0,
    tx: async <T>(fn: (tx: Db) => Promise<T>) => {
      if (!root) throw new Error('nested transactions are not supported; pass the tx handle down');
      return root.transaction((tx) => fn(wrap(tx as unknown as Queryable, undefined)));
    },
    savepoint: async <T>(fn: (tx: Db) => Promise<T>) => {
      if (root) throw new Error('a savepoint needs a transaction: call it on the tx handle');
      await query('savepoint qc_savepoint');
      try {
        const result = await fn(wrap(pg, undefined));
        await query('release savepoint qc_savepoint');
        return result;
      } catch (err) {
        await query('rollback to savepoint qc_savepoint');
        await query('release savepoint qc_savepoint');
        throw err;
      }
    },
    listen: async (channel, onNotify) => {
      if (!root) throw new Error('LISTEN needs the database, not a transaction handle');
      await root.listen(channel, onNotify);
      onNotify();
    },
    // One connection: the reason Db.notify gives for a connection of its own does not arise.
    notify: async (channel, payload) => {
      if (!root) throw new Error('a notification from a transaction goes out at its commit: use the database');
      await query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      await root?.close();
    },
    closed: () => root?.closed ?? false,
  };
}

/** Embedded PostgreSQL. `dir` undefined keeps the database in memory (tests); otherwise on disk. */
export async function openPglite(dir: string | undefined): Promise<Db> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create(dir, { parsers });
  return wrap(pg as unknown as Queryable, pg);
}
