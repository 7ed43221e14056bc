import type { Log } from '../log.ts';
import { type Db, isDatabaseUnavailable, sqlState } from './db.ts';

/**
 * Where a read that tolerates lag goes (DATABASE_REPLICA_URL): the read replica while it is up and its replay
 * lag is at most `maxLagMs`, the primary otherwise. Writes never come here, and a caller that wrote within
 * the last `maxLagMs` (in this process) reads from the primary, so it sees its own write.
 *
 * The lag is measured, not trusted: every tick samples the primary's WAL position (pg_current_wal_lsn) and
 * asks the replica how far it has replayed (pg_last_wal_replay_lsn); the lag is the age of the newest primary
 * sample the replica has replayed. An idle primary does not look like a lagging replica (the position does
 * not move), and a replica cut off from the primary is seen lagging as soon as the primary writes.
 */
export interface LagTolerantReads {
  /** The database for a lag-tolerant read by `reader` (a principal's client id), or for anyone (undefined). */
  for(reader?: number): Db;
  /** `reader` wrote: its reads stay on the primary for the lag bound. */
  wrote(reader: number): void;
  /** For /readyz: the replica in use (`ok`), behind the bound (`lagging`) or unreachable (`down`); none: no replica. */
  state?(): 'ok' | 'lagging' | 'down';
  close(): Promise<void>;
}

/** Without a replica: every read on the primary. */
export function primaryOnly(primary: Db): LagTolerantReads {
  return { for: () => primary, wrote: () => {}, close: async () => {} };
}

interface Sample {
  lsn: bigint;
  at: number;
}

export class ReplicaReads implements LagTolerantReads {
  readonly #samples: Sample[] = [];
  readonly #writers = new Map<number, number>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #fallback: Db;
  #caughtUpAt = Number.NEGATIVE_INFINITY;
  #up = false;

  constructor(
    private readonly primary: Db,
    private readonly replica: Db,
    readonly maxLagMs: number,
    private readonly log: Log,
    readonly tickMs = Math.max(50, Math.min(500, Math.floor(maxLagMs / 4))),
  ) {
    this.#fallback = fallbackToPrimary(replica, primary, () => {
      this.#up = false;
    });
    this.#timer = setInterval(() => void this.tick(), tickMs);
    this.#timer.unref();
    void this.tick();
  }

  /** How far behind the replica is (Infinity when down or never caught up). */
  lagMs(now = Date.now()): number {
    return this.#up ? now - this.#caughtUpAt : Number.POSITIVE_INFINITY;
  }

  state(): 'ok' | 'lagging' | 'down' {
    if (!this.#up) return 'down';
    return this.lagMs() <= this.maxLagMs ? 'ok' : 'lagging';
  }

  for(reader?: number): Db {
    const now = Date.now();
    if (reader !== undefined && (this.#writers.get(reader) ?? 0) > now) return this.primary;
    return this.lagMs(now) <= this.maxLagMs ? this.#fallback : this.primary;
  }

  wrote(reader: number): void {
    const now = Date.now();
    this.#writers.set(reader, now + this.maxLagMs);
    // Forget writers whose window ended, so the map stays as small as the set of recent writers.
    if (this.#writers.size > 1000) for (const [id, until] of this.#writers) if (until <= now) this.#writers.delete(id);
  }

  async tick(): Promise<void> {
    try {
      // Timed before the question: the position is at least this recent, while the time of the answer would add
      // the query's time (a pool wait included) to nothing, under-measuring the lag by it.
      const at = Date.now();
      const [primary] = await this.primary.sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`;
      this.#samples.push({ lsn: parseLsn(primary?.lsn), at });
      // Samples older than the bound only matter as "not replayed yet": keep the newest few.
      const keep = Math.ceil(this.maxLagMs / this.tickMs) + 2;
      if (this.#samples.length > keep) this.#samples.splice(0, this.#samples.length - keep);
      const [replica] = await this.replica.sql<{ lsn: string | null }>`select pg_last_wal_replay_lsn()::text as lsn`;
      // Not in recovery (a promoted or misconfigured "replica"): it is no replica of this primary.
      if (!replica?.lsn) throw new Error('DATABASE_REPLICA_URL is not a server in recovery');
      const replayed = parseLsn(replica.lsn);
      while (this.#samples[0] && this.#samples[0].lsn <= replayed)
        this.#caughtUpAt = (this.#samples.shift() as Sample).at;
      if (!this.#up) this.log.info('read replica in use', { lag_ms: this.lagMs() });
      this.#up = true;
    } catch (err) {
      if (this.#up) this.log.warn('read replica unavailable; reads go to the primary', { error: String(err) });
      this.#up = false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.replica.close();
  }
}

/** '16/B374D848' -> 0x16B374D848: positions compare as numbers. */
export function parseLsn(text: string | undefined): bigint {
  const [high, low] = (text ?? '').split('/');
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * A hot standby cancels a query that holds up replay (a lock or a row version replay must remove) once
 * max_standby_streaming_delay has passed: SQLSTATE 40001, "canceling statement due to conflict with recovery". Only
 * a standby raises it for these reads (read-committed statements outside a transaction): the primary answers them.
 */
const RECOVERY_CONFLICT = '40001';

/**
 * Reads on the replica; one that cannot reach it is run on the primary instead (and the replica marked down), and
 * so is one the replica cancelled for a conflict with recovery (the replica still serves the next).
 */
function fallbackToPrimary(replica: Db, primary: Db, down: () => void): Db {
  const retry =
    <A extends unknown[], R>(run: (db: Db, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(replica, ...args);
      } catch (err) {
        if (isDatabaseUnavailable(err)) down();
        else if (sqlState(err) !== RECOVERY_CONFLICT) throw err;
        return run(primary, ...args);
      }
    };
  return {
    kind: replica.kind,
    sql: retry((db, strings: TemplateStringsArray, ...values: unknown[]) => db.sql(strings, ...values)) as Db['sql'],
    query: retry((db, text: string, params?: unknown[]) => db.query(text, params)) as Db['query'],
    // A write, a transaction or LISTEN is never a lag-tolerant read.
    affected: (strings, ...values) => primary.affected(strings, ...values),
    tx: (fn, options) => primary.tx(fn, options),
    savepoint: (fn) => primary.savepoint(fn),
    listen: (channel, onNotify) => primary.listen(channel, onNotify),
    notify: (channel, payload) => primary.notify(channel, payload),
    close: async () => {},
    closed: () => primary.closed(),
  };
}
