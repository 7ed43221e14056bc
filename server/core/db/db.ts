/**
 * The small database interface both backends implement: PostgreSQL through postgres.js, or embedded PGlite.
 * SQL is plain PostgreSQL and lives in the file that uses it. Values are always bound parameters.
 *
 * Row types are normalised across backends: int8 and numeric come back as JS numbers, `date` as
 * 'YYYY-MM-DD' strings, timestamptz as Date, json/jsonb parsed.
 */
export interface Db {
  readonly kind: 'postgres' | 'pglite';
  /** Tagged template: each `${value}` becomes a bound parameter. */
  sql<T = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /**
   * Tagged template for a write whose rows are not wanted: answers how many rows it inserted, updated or
   * deleted, from the statement's command tag (`INSERT 0 n`, `UPDATE n`, `DELETE n`). For `INSERT .. ON
   * CONFLICT DO UPDATE .. WHERE` that is the rows inserted or updated; a conflicting row the WHERE left alone
   * is not counted. Cheaper than `returning` gathered by `count(*)` in a CTE, which materialises every row
   * (the calendar writers, docs/performance.md "Pushes, count from the command tag (push4)").
   */
  affected(strings: TemplateStringsArray, ...values: unknown[]): Promise<number>;
  /** Text with $1.. placeholders and its parameters, for the few statements built dynamically. */
  query<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; the handle passed in must be used for every statement of it. */
  tx<T>(fn: (tx: Db) => Promise<T>, options?: TxOptions): Promise<T>;
  /**
   * Inside a transaction only: runs fn under a savepoint. When fn throws, its statements are rolled back
   * and the error rethrown, and the transaction can go on (a database error inside fn included).
   */
  savepoint<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Outside a transaction only: LISTEN on `channel` for as long as the database is open. `onNotify` runs on
   * every notification, and also whenever the listening connection is (re)established, since notifications
   * sent while it was down are lost: then without a payload. Resolves once the first LISTEN is in place.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<void>;
  /**
   * Outside a transaction only: `pg_notify(channel, payload)`, committed at once, on a connection of its own
   * rather than one of the pool's. A heartbeat every 150 ms on the pool's connections made a large answer on the
   * same connection late by 15-50 ms once in about a hundred (a feed page of 500 revisions, 0.5 MB), with nothing
   * else different; on a connection of its own it never was (docs/performance.md, "the page-of-500 stalls").
   */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
  /** Whether close() has been called (a transaction handle: never). */
  closed(): boolean;
  /**
   * How long the connection pool has failed every statement although the database itself answers a fresh
   * connection (it is replaced first; this counts on if that did not help). Zero when serving. /healthz fails
   * past a bound so an orchestrator restarts a process that cannot recover by itself. PGlite: absent.
   */
  stuckForMs?(): number;
}

export type Row = Record<string, unknown>;

export interface TxOptions {
  /** Overrides the per-statement deadline for this transaction (migrations may run long). */
  timeoutMs?: number;
}

export function toQuery(strings: TemplateStringsArray, values: unknown[]): [string, unknown[]] {
  let text = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return [text, values];
}

/** SQLSTATE codes we map to error keys. */
export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Seconds a client is told to wait (Retry-After) when the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

// postgres.js connection-level codes, socket errors, and SQLSTATE classes 08 (connection exception) and 57P
// (operator intervention: terminated backend, shutdown) plus 57014 (statement timeout or cancel).
const LOST_CONNECTION = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  '57014',
]);

/**
 * True when a statement failed because the database could not be reached or dropped the connection, not
 * because of what was asked: such a request is answered 503 with Retry-After (its transaction rolled back
 * with the connection), never 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown; errno?: unknown } | null)?.code;
  if (typeof code !== 'string') return err instanceof DatabaseUnavailable;
  return LOST_CONNECTION.has(code) || code.startsWith('08') || code.startsWith('57P');
}

/**
 * A write refused by a server that takes none (SQLSTATE 25006, read_only_sql_transaction): a hot standby, which a
 * pooler's host list (PgBouncer 1.18 round-robins one) can still point at around a failover. The service never opens
 * a read-only transaction itself, so this is the writable database out of reach; the statement did not run. Not a
 * lost connection: the pool is fine, and replacing it (or restarting the process) would not help.
 */
export function isReadOnlyServer(err: unknown): boolean {
  return sqlState(err) === '25006';
}

/** Raised by the adapters when no connection could be had in time (pool exhausted, database not answering). */
export class DatabaseUnavailable extends Error {
  constructor(reason: string) {
    super(`database unavailable: ${reason}`);
    this.name = 'DatabaseUnavailable';
  }
}

/**
 * The connection was lost (or the deadline passed) after a write's COMMIT, or a write statement outside a
 * transaction, had been sent: it may have been applied or not, and the service cannot tell. Answered 503 with
 * its own key (errors.qc.write_outcome_unknown), never "not applied": the client retries with the same
 * Idempotency-Key, which finds the write if it was applied. Still a DatabaseUnavailable for every other purpose.
 */
export class WriteOutcomeUnknown extends DatabaseUnavailable {
  constructor(cause: unknown) {
    super(`the outcome of a write is unknown (${(cause as Error)?.message ?? String(cause)})`);
    this.name = 'WriteOutcomeUnknown';
  }
}

// Connection failures that happen before anything reached the server: the statement cannot have run. Not
// CONNECTION_DESTROYED: postgres.js also fails with it the statement in flight on a connection it destroys (a wedged
// pool replaced, a pool closed past its grace), a COMMIT the server may complete.
const NEVER_SENT = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', 'CONNECTION_ENDED']);

/** A lost connection that may have carried the statement to the server (not a refused or never-made one). */
export function mayHaveReachedServer(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return isDatabaseUnavailable(err) && !(typeof code === 'string' && NEVER_SENT.has(code));
}
