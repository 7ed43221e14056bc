import postgres from 'postgres';
import { TimeoutError, withTimeout } from '../timeout.ts';
import { DatabaseUnavailable, type Db, type Row, toQuery } from './db.ts';

// Same row types as the PGlite adapter: int8/numeric as numbers, date as 'YYYY-MM-DD'.
const types = {
  int8: { to: 20, from: [20], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  date: { to: 1082, from: [1082], serialize: (x: unknown) => String(x), parse: (x: string) => x },
};

/** The default bound on one statement, waiting for a pooled connection included (QC_DB_TIMEOUT_MS). */
export const DEFAULT_DB_TIMEOUT_MS = 2000;

export interface PostgresOptions {
  max?: number;
  /**
   * How long a statement may take, waiting for a connection included, and how long connecting may take,
   * before the request fails with DatabaseUnavailable (answered 503). A stopped or hung PostgreSQL then
   * answers within this bound instead of the driver's 30 s connect timeout or never.
   */
  timeoutMs?: number;
}

/** What a transaction shares with its statements: its deadline, and whether it was given up. */
interface TxState {
  timeoutMs: number;
  abandoned?: DatabaseUnavailable;
  abandon(reason: DatabaseUnavailable): void;
}

function statement(
  sql: postgres.Sql | postgres.TransactionSql,
  timeoutMs: number,
  tx: TxState | undefined,
): Db['query'] {
  return async <T>(text: string, params: unknown[] = []) => {
    if (tx?.abandoned) throw tx.abandoned;
    const pending = sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
    try {
      return (await withTimeout(pending, timeoutMs)) as unknown as T[];
    } catch (err) {
      if (!(err instanceof TimeoutError)) throw err;
      // Not yet sent: it leaves the queue and never runs. Sent: PostgreSQL is asked to cancel it. Either
      // way the caller hears 503 now and the statement cannot apply behind its back.
      // (typed void, it answers the cancel request's promise; a hung server may refuse it too.)
      Promise.resolve(pending.cancel() as unknown).catch(() => {});
      const unavailable = new DatabaseUnavailable(`no answer within ${timeoutMs} ms`);
      tx?.abandon(unavailable);
      throw unavailable;
    }
  };
}

function wrap(sql: postgres.Sql | postgres.TransactionSql, timeoutMs: number, tx?: TxState): Db {
  const query = statement(sql, timeoutMs, tx);
  return {
    kind: 'postgres',
    query,
    sql: <T = Row>(strings: TemplateStringsArray, ...values: unknown[]) => query<T>(...toQuery(strings, values)),
    tx: (fn, options) => {
      if (tx || !('begin' in sql)) throw new Error('nested transactions are not supported; pass the tx handle down');
      return transaction(sql as postgres.Sql, options?.timeoutMs ?? timeoutMs, fn);
    },
    savepoint: async (fn) => {
      if (!tx) throw new Error('a savepoint needs a transaction: call it on the tx handle');
      // postgres.js's own savepoint scope: a failed statement inside it does not fail the whole transaction.
      return (await (sql as postgres.TransactionSql).savepoint((sp) => fn(wrap(sp, timeoutMs, tx)))) as never;
    },
    listen: async (channel, onNotify) => {
      if (tx || !('listen' in sql)) throw new Error('LISTEN needs the pool, not a transaction handle');
      // postgres.js gives LISTEN a connection of its own, re-listens after a reconnect, and ends it with the pool.
      await (sql as postgres.Sql).listen(channel, onNotify, onNotify);
    },
    close: async () => {
      if (!tx) await (sql as postgres.Sql).end({ timeout: 5 });
    },
  };
}

/**
 * sql.begin, bounded: waiting for a connection, each statement and the COMMIT each get the deadline. A
 * transaction that overruns is answered at once (DatabaseUnavailable) while postgres.js rolls it back in the
 * background: every later statement of it fails, so it can never reach COMMIT.
 */
async function transaction<T>(sql: postgres.Sql, timeoutMs: number, fn: (tx: Db) => Promise<T>): Promise<T> {
  let giveUp!: (reason: DatabaseUnavailable) => void;
  const givenUp = new Promise<never>((_, reject) => {
    giveUp = reject;
  });
  const state: TxState = {
    timeoutMs,
    abandon(reason) {
      state.abandoned ??= reason;
      giveUp(state.abandoned);
    },
  };
  const overdue = (what: string) => () => state.abandon(new DatabaseUnavailable(`${what} within ${timeoutMs} ms`));
  let timer = setTimeout(overdue('no connection'), timeoutMs);
  const work = sql.begin(async (tx) => {
    clearTimeout(timer);
    if (state.abandoned) throw state.abandoned;
    const result = await fn(wrap(tx, timeoutMs, state));
    if (state.abandoned) throw state.abandoned;
    timer = setTimeout(overdue('no commit'), timeoutMs);
    return result as T;
  });
  // The loser of the race below settles later (a rollback after the database returns): nobody awaits it.
  work.catch(() => {});
  try {
    return (await Promise.race([work, givenUp])) as T;
  } finally {
    clearTimeout(timer);
  }
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
  const sql = postgres(url, {
    max: options.max ?? 10,
    types: types as unknown as Record<string, postgres.PostgresType>,
    onnotice: () => {},
    connect_timeout: timeoutMs / 1000,
    // The driver's default grows to 20 s after a few failed connects, so recovery lagged the database's
    // return by that much; reconnect within half a second instead.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    connection: {
      application_name: 'qc-service',
      // A process frozen mid-transaction (SIGSTOP, a debugger) must not hold row locks for good.
      idle_in_transaction_session_timeout: 60_000,
    },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  return wrap(sql, timeoutMs);
}
