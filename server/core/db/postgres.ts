import postgres from 'postgres';
import { TimeoutError, withTimeout } from '../timeout.ts';
import {
  DatabaseUnavailable,
  type Db,
  isDatabaseUnavailable,
  mayHaveReachedServer,
  type Row,
  toQuery,
  WriteOutcomeUnknown,
} from './db.ts';
import { postgresTarget } from './postgres-target.ts';

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
   * Set when `url` is a transaction pooler (PgBouncer, pool_mode = transaction): the URL of a direct (or
   * session-pooled) connection for what needs a session of its own: LISTEN. Through the pooler, statements are
   * then sent without server-side prepared statements and without session start-up parameters (the session
   * settings are SET LOCAL in each transaction instead).
   */
  sessionUrl?: string;
  /** Told when the pool was found wedged and replaced (start-up wires it to a warning in the log). */
  onReplaced?: () => void;
  /**
   * How long a statement may take, waiting for a connection included, and how long connecting may take,
   * before the request fails with DatabaseUnavailable (answered 503). A stopped or hung PostgreSQL then
   * answers within this bound instead of the driver's 30 s connect timeout or never.
   */
  timeoutMs?: number;
}

/**
 * How long the pool may fail every statement, while a fresh connection to the same database answers, before
 * it is thrown away and replaced (in multiples of the statement deadline).
 */
const REPLACE_AFTER_DEADLINES = 2;

/** What a transaction shares with its statements: its deadline, and whether it was given up. */
interface TxState {
  timeoutMs: number;
  abandoned?: DatabaseUnavailable;
  abandon(reason: DatabaseUnavailable): void;
}

/** postgres.js's answer to a statement: its rows, and `count` from the command tag (null for a tag without one). */
type Answer = postgres.RowList<Row[]>;

function statement(
  sql: () => postgres.Sql | postgres.TransactionSql,
  pool: Pool,
  tx: TxState | undefined,
): (text: string, params?: unknown[]) => Promise<Answer> {
  const timeoutMs = tx?.timeoutMs ?? pool.timeoutMs;
  const outsideTx = tx === undefined;
  return async (text: string, params: unknown[] = []) => {
    if (tx?.abandoned) throw tx.abandoned;
    const pending = sql().unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: pool.prepare });
    try {
      const answer = await withTimeout(pending, timeoutMs);
      pool.health.succeeded();
      return answer;
    } catch (err) {
      if (isDatabaseUnavailable(err)) pool.health.failed();
      if (!(err instanceof TimeoutError))
        throw outsideTx && isWrite(text) && mayHaveReachedServer(err) ? new WriteOutcomeUnknown(err) : err;
      // Not yet sent: it leaves the queue and never runs. Sent: PostgreSQL is asked to cancel it. Either
      // way the caller hears 503 now and the statement cannot apply behind its back.
      // (typed void, it answers the cancel request's promise; a hung server may refuse it too.)
      Promise.resolve(pending.cancel() as unknown).catch(() => {});
      const unavailable = new DatabaseUnavailable(`no answer within ${timeoutMs} ms`);
      tx?.abandon(unavailable);
      // A write outside a transaction commits on its own: a cancel may come after it did.
      throw outsideTx && isWrite(text) ? new WriteOutcomeUnknown(unavailable) : unavailable;
    }
  };
}

/** A statement that changes data (a data-modifying CTE included); outside a transaction it commits by itself. */
function isWrite(text: string): boolean {
  if (/^\s*(insert|update|delete|merge)\b/i.test(text)) return true;
  return /^\s*with\b/i.test(text) && /\b(insert|update|delete)\b/i.test(text);
}

/** The Db methods that run one statement, over the pool's or a transaction's `statement`. */
function statements(run: ReturnType<typeof statement>): Pick<Db, 'query' | 'sql' | 'affected'> {
  // The answer is the rows array itself (with `count` beside them): no copy, no extra step.
  const query = run as unknown as Db['query'];
  return {
    query,
    sql: <T = Row>(strings: TemplateStringsArray, ...values: unknown[]) => query<T>(...toQuery(strings, values)),
    affected: async (strings: TemplateStringsArray, ...values: unknown[]) =>
      (await run(...toQuery(strings, values))).count ?? 0,
  };
}

/** A transaction's (or savepoint's) handle: its statements run on the connection sql.begin reserved. */
function wrapTx(sql: postgres.TransactionSql, pool: Pool, tx: TxState): Db {
  const run = statement(() => sql, pool, tx);
  return {
    kind: 'postgres',
    ...statements(run),
    tx: () => {
      throw new Error('nested transactions are not supported; pass the tx handle down');
    },
    savepoint: async (fn) =>
      // postgres.js's own savepoint scope: a failed statement inside it does not fail the whole transaction.
      (await sql.savepoint((sp) => fn(wrapTx(sp, pool, tx)))) as never,
    listen: async () => {
      throw new Error('LISTEN needs the pool, not a transaction handle');
    },
    notify: async () => {
      throw new Error('a notification from a transaction goes out at its commit: use the pool');
    },
    close: async () => {},
    closed: () => false,
  };
}

/**
 * sql.begin, bounded: waiting for a connection, each statement and the COMMIT each get the deadline. A
 * transaction that overruns is answered at once (DatabaseUnavailable) while postgres.js rolls it back in the
 * background: every later statement of it fails, so it can never reach COMMIT.
 */
async function transaction<T>(pool: Pool, timeoutMs: number, fn: (tx: Db) => Promise<T>): Promise<T> {
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
  const overdue = (what: string) => () => {
    pool.health.failed();
    state.abandon(new DatabaseUnavailable(`${what} within ${timeoutMs} ms`));
  };
  let timer = setTimeout(overdue('no connection'), timeoutMs);
  // Set once the callback returned and postgres.js sends COMMIT: a connection lost from then on may have
  // committed or not, and the caller must hear that, not "not applied".
  let committing = false;
  const work = pool.sql.begin(async (tx) => {
    clearTimeout(timer);
    if (state.abandoned) throw state.abandoned;
    const handle = wrapTx(tx, pool, state);
    // Through a transaction pooler the session is not ours: the settings a direct connection gets at start-up
    // hold for this transaction only.
    if (pool.sessionSettingsPerTransaction) await handle.query(SET_LOCAL_SESSION_SETTINGS);
    const result = await fn(handle);
    if (state.abandoned) throw state.abandoned;
    committing = true;
    timer = setTimeout(overdue('no commit'), timeoutMs);
    return result as T;
  });
  // The loser of the race below settles later (a rollback after the database returns): nobody awaits it.
  work.catch(() => {});
  try {
    return (await Promise.race([work, givenUp])) as T;
  } catch (err) {
    throw committing && mayHaveReachedServer(err) ? new WriteOutcomeUnknown(err) : err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A process frozen mid-transaction (SIGSTOP, a debugger) must not hold row locks for good: PostgreSQL ends a
 * session idle inside a transaction for this long. A start-up parameter on a direct connection; SET LOCAL in
 * each transaction through a transaction pooler, which refuses session start-up parameters.
 */
const IDLE_IN_TRANSACTION_MS = 60_000;
const SET_LOCAL_SESSION_SETTINGS = `set local idle_in_transaction_session_timeout = ${IDLE_IN_TRANSACTION_MS}`;

// The driver's default grows to 20 s after a few failed connects, so recovery lagged the database's return by that
// much; reconnect within half a second instead.
const reconnectBackoff = (retries: number) => Math.min(0.05 * 2 ** retries, 0.5);

/**
 * The live postgres.js pool behind a Db, replaceable: when every statement has failed for a while but a fresh
 * connection to the same database answers, the pool's own state is what is broken (connections the driver
 * believes open whose peer is gone without a word: a half-open TCP connection after a failover or a network
 * drop answers nothing until TCP keep-alive gives up, minutes later). The pool is then replaced by a new one
 * and the old one destroyed, so the process recovers by itself instead of answering 503 until restarted.
 */
class Pool {
  sql: postgres.Sql;
  readonly health: PoolHealth;
  readonly prepare: boolean;
  readonly sessionSettingsPerTransaction: boolean;
  readonly #listeners: { channel: string; onNotify: (payload?: string) => void }[] = [];
  #session: postgres.Sql | undefined;
  #notifier: postgres.Sql | undefined;
  #replacing = false;
  #closed = false;

  constructor(
    private readonly url: string,
    readonly timeoutMs: number,
    private readonly max: number,
    private readonly sessionUrl: string | undefined,
    private readonly onReplaced: () => void = () => {},
  ) {
    this.prepare = sessionUrl === undefined;
    this.sessionSettingsPerTransaction = sessionUrl !== undefined;
    this.health = new PoolHealth(timeoutMs * REPLACE_AFTER_DEADLINES, () => void this.replaceIfWedged());
    this.sql = this.#open();
  }

  #open(): postgres.Sql {
    const { url, host } = postgresTarget(this.url);
    return postgres(url, {
      host,
      max: this.max,
      types: types as unknown as Record<string, postgres.PostgresType>,
      onnotice: () => {},
      connect_timeout: this.timeoutMs / 1000,
      backoff: reconnectBackoff,
      // Server-side prepared statements live in a session: through a transaction pooler the next statement
      // may run in another server session, where the statement "does not exist".
      prepare: this.prepare,
      connection: this.sessionSettingsPerTransaction
        ? { application_name: 'qc-service' }
        : { application_name: 'qc-service', idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS },
    } as postgres.Options<Record<string, postgres.PostgresType>>);
  }

  /** LISTEN needs a session: the direct URL's when the pool is a transaction pooler, else the pool's own. */
  async listen(channel: string, onNotify: (payload?: string) => void): Promise<void> {
    this.#listeners.push({ channel, onNotify });
    const target = this.sessionUrl ? this.#sessionSql() : this.sql;
    // postgres.js gives LISTEN a connection of its own, re-listens after a reconnect, and ends it with the pool.
    await target.listen(channel, onNotify, onNotify);
  }

  /** On a connection of its own (Db.notify says why); through a transaction pooler, NOTIFY works as it does here. */
  async notify(channel: string, payload: string): Promise<void> {
    this.#notifier ??= this.#oneConnection(this.url, 'qc-service-notify');
    const notifier = this.#notifier;
    try {
      await withTimeout(notifier`select pg_notify(${channel}, ${payload})`, this.timeoutMs);
    } catch (err) {
      // Not waited on again (a connection gone silent, as the pool's can): the next notification opens a fresh one.
      if (this.#notifier === notifier) {
        this.#notifier = undefined;
        notifier.end({ timeout: 0 }).catch(() => {});
      }
      throw err;
    }
  }

  #sessionSql(): postgres.Sql {
    this.#session ??= this.#oneConnection(this.sessionUrl as string, 'qc-service-listen');
    return this.#session;
  }

  /** A connection beside the pool (LISTEN's session, notifications, the wedge probe), named for what it does. */
  #oneConnection(target: string, applicationName: string): postgres.Sql {
    const { url, host } = postgresTarget(target);
    return postgres(url, {
      host,
      max: 1,
      prepare: false,
      onnotice: () => {},
      connect_timeout: this.timeoutMs / 1000,
      backoff: reconnectBackoff,
      connection: { application_name: applicationName },
    });
  }

  async replaceIfWedged(): Promise<void> {
    if (this.#replacing || this.#closed) return;
    this.#replacing = true;
    try {
      const probe = this.#oneConnection(this.url, 'qc-service-probe');
      let answered = false;
      try {
        await withTimeout(probe`select 1`, this.timeoutMs);
        answered = true;
      } catch {
        // The database itself is out of reach: a new pool would not help; the driver reconnects when it returns.
      } finally {
        probe.end({ timeout: 0 }).catch(() => {});
      }
      this.health.probed(answered);
      if (!answered || this.#closed) return;
      const old = this.sql;
      this.sql = this.#open();
      this.health.replaced();
      this.onReplaced();
      // Whatever waits on the old pool fails now (503) instead of at its deadline; its LISTEN connection goes
      // with it, so the channels are listened to again on the new one (and their handlers run once, since
      // notifications may have been missed).
      old.end({ timeout: 0 }).catch(() => {});
      if (!this.sessionUrl) {
        for (const { channel, onNotify } of this.#listeners) {
          this.sql.listen(channel, onNotify, onNotify).catch(() => {});
        }
      }
    } finally {
      this.#replacing = false;
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([
      this.sql.end({ timeout: 5 }),
      this.#session?.end({ timeout: 5 }),
      this.#notifier?.end({ timeout: 5 }),
    ]);
  }
}

/**
 * Whether the pool serves. A statement that could not reach the database starts a failing streak; any success
 * ends it. A streak longer than `replaceAfterMs` asks for a replacement (at most once per that interval).
 */
export class PoolHealth {
  #failingSince: number | undefined;
  #lastFailure = 0;
  #lastAttempt = 0;
  /** The pool was already replaced in this failing streak: failing on, it is not the pool's state. */
  #replacedInStreak = false;
  /** Since when the pool has failed although it was replaced and a fresh connection to the database answered. */
  #stuckSince: number | undefined;
  replacements = 0;

  constructor(
    private readonly replaceAfterMs: number,
    private readonly replace: () => void,
  ) {}

  succeeded(): void {
    this.#failingSince = undefined;
    this.#stuckSince = undefined;
    this.#replacedInStreak = false;
  }

  failed(now = Date.now()): void {
    this.#failingSince ??= now;
    this.#lastFailure = now;
    if (now - this.#failingSince >= this.replaceAfterMs && now - this.#lastAttempt >= this.replaceAfterMs) {
      this.#lastAttempt = now;
      this.replace();
    }
  }

  probed(databaseAnswered: boolean, now = Date.now()): void {
    if (!databaseAnswered) this.#stuckSince = undefined;
    else if (this.#replacedInStreak) this.#stuckSince ??= now;
  }

  replaced(): void {
    this.replacements++;
    this.#replacedInStreak = true;
  }

  /**
   * How long the pool has gone on failing after a replacement while the database itself answered: the process
   * is not recovering by itself (liveness). Measured up to the latest failure, so a process without traffic
   * is never counted stuck; zero while serving, and while the database is what is out of reach (a restart
   * would not help).
   */
  stuckForMs(): number {
    return this.#stuckSince === undefined || this.#failingSince === undefined
      ? 0
      : Math.max(0, this.#lastFailure - this.#stuckSince);
  }
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
  const pool = new Pool(url, timeoutMs, options.max ?? 10, options.sessionUrl, options.onReplaced);
  const run = statement(() => pool.sql, pool, undefined);
  return {
    kind: 'postgres',
    ...statements(run),
    tx: (fn, txOptions) => transaction(pool, txOptions?.timeoutMs ?? timeoutMs, fn),
    savepoint: async () => {
      throw new Error('a savepoint needs a transaction: call it on the tx handle');
    },
    listen: (channel, onNotify) => pool.listen(channel, onNotify),
    notify: (channel, payload) => pool.notify(channel, payload),
    close: () => pool.close(),
    closed: () => pool.closed,
    stuckForMs: () => pool.health.stuckForMs(),
  };
}
