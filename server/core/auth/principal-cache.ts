import type { Db } from '../db/db.ts';

/** The channel migration 0850 notifies on, at commit, when a row that decides a principal changes. */
export const AUTH_CHANNEL = 'qc_auth';

/**
 * How far behind the database a cached client row may be. The notification drops the cache at once; this
 * bounds what a lost notification (the listening connection down or silently gone) can cost: a revocation
 * then still applies within it (and within one second in every process, as principal-cache.processes.test.ts pins).
 */
export const PRINCIPAL_MAX_AGE_MS = 500;

/** How often each process sends its own notification through the database to prove the LISTEN delivers. */
export const ALIVE_EVERY_MS = 150;

// Tokens are few per deployment; the bound keeps a flood of distinct valid tokens from growing memory. Past it the
// least recently used row goes, not the whole cache: one customer using many tokens must not make every other
// customer's next request reload its row (and allow-list) at once.
export const MAX_ENTRIES = 10_000;

/** How long a write's answer waits for its heartbeat before clearing the cache instead (sync()). */
const SYNC_TIMEOUT_MS = 250;

/** Heartbeat payloads start with this; every other notification on AUTH_CHANNEL is a change. */
const ALIVE_PREFIX = 'alive:';

/**
 * Who a credential is (its client row and live allow-list), kept per database handle so that every app of
 * one process shares one cache and one LISTEN connection. Only found rows are kept: an unknown or revoked
 * token is looked up every time, so a new token works at once and guessing costs a query each.
 *
 * Correctness: every write to api_clients, properties (status, group, customer) and property_groups
 * (paused) notifies AUTH_CHANNEL at commit and each process clears its cache on it. A row may be used while
 * the process can show it has seen every notification committed up to PRINCIPAL_MAX_AGE_MS ago, or while
 * it is younger than that. The proof is a heartbeat: every ALIVE_EVERY_MS the process notifies the same
 * channel with a payload of its own, and PostgreSQL delivers a channel's notifications in commit order, so
 * when its heartbeat sent at S comes back, every change committed before S has been delivered (and has
 * cleared the cache). Without the heartbeat every row was reloaded each 500 ms: for an account-scoped token
 * of a 9000-property account that is the allow-list, 3-5 ms a reload (issue 24, bench:volume). Until the
 * LISTEN is in place nothing is cached; a lost connection stops the heartbeats coming back, and rows then
 * age out as before.
 */
export class PrincipalCache<Row> {
  readonly #entries = new Map<string, { row: Row; loadedAt: number }>();
  #listening = false;
  // Bumped by every clear: a look-up that started before a clear must not store what it read.
  #generation = 0;
  // When the latest heartbeat that came back was sent (performance.now()); -Infinity before the first.
  #deliveredThrough = Number.NEGATIVE_INFINITY;
  readonly #sent = new Map<string, number>();
  readonly #self = `${ALIVE_PREFIX}${crypto.randomUUID()}:`;
  #sequence = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #db: Db | undefined;
  // sync() callers waiting for a heartbeat sent after they called.
  #waiting: { since: number; done: () => void }[] = [];
  #syncing: Promise<void> | undefined;

  readonly maxAgeMs: number;
  readonly aliveEveryMs: number;
  readonly channel: string;

  /** The options exist for tests: a channel of their own, shorter times. */
  constructor(options: { maxAgeMs?: number; aliveEveryMs?: number; channel?: string } = {}) {
    this.maxAgeMs = options.maxAgeMs ?? PRINCIPAL_MAX_AGE_MS;
    this.aliveEveryMs = options.aliveEveryMs ?? ALIVE_EVERY_MS;
    this.channel = options.channel ?? AUTH_CHANNEL;
  }

  /** The row for `key`, from the cache or from `load` (which answers undefined for an unknown credential). */
  async get(key: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const now = performance.now();
    const hit = this.fresh(key, now);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    const row = await load();
    if (row && this.#listening && generation === this.#generation) {
      this.#entries.delete(key);
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(key, { row, loadedAt: now });
    }
    return row;
  }

  /** The cached row for `key` while it may still be used, without a look-up. */
  fresh(key: string, now = performance.now()): Row | undefined {
    const hit = this.#entries.get(key);
    const since = now - this.maxAgeMs;
    if (!hit || (hit.loadedAt <= since && this.#deliveredThrough <= since)) return undefined;
    // Moved to the end on use, so the Map's insertion order is least recently used first: what the bound evicts.
    // Only once the cache is half full (a move costs about 80 ns a hit; a deployment's few tokens never pay it):
    // every row used since is then behind every row not used since, when eviction starts.
    if (this.#entries.size > MAX_ENTRIES / 2) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit.row;
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /**
   * Starts caching once `db` notifies this process of auth changes; without LISTEN it never caches. A first LISTEN
   * that fails (the session URL out of reach at start) rejects, but the driver keeps trying it and calls back once
   * it is in place: caching starts then, rather than staying off for the life of the process.
   */
  async listen(db: Db): Promise<void> {
    this.#db = db;
    await db.listen(this.channel, (payload) => {
      this.#listeningNow();
      this.#notified(payload);
    });
    this.#listeningNow();
  }

  #listeningNow(): void {
    if (this.#listening) return;
    this.#listening = true;
    this.#timer = setInterval(() => this.#beat(), this.aliveEveryMs);
    // A heartbeat must not keep a process alive that is otherwise done.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Resolves once every change committed before the call has reached this cache (and cleared it): a write of
   * this process awaits it before its answer leaves, so its caller's next request never races the
   * notification (a revoked token refused at once). One heartbeat serves every call of the same tick; one
   * that does not come back within SYNC_TIMEOUT_MS clears the cache instead, as every write once did.
   */
  sync(): Promise<void> {
    if (!this.#listening) {
      this.clear();
      return Promise.resolve();
    }
    this.#syncing ??= Promise.resolve().then(() => {
      this.#syncing = undefined;
      return this.#roundTrip();
    });
    return this.#syncing;
  }

  #roundTrip(): Promise<void> {
    const since = performance.now();
    return new Promise<void>((resolve) => {
      const timeout = setTimeout(() => {
        this.#waiting = this.#waiting.filter((w) => w !== waiter);
        this.clear();
        resolve();
      }, SYNC_TIMEOUT_MS);
      const waiter = {
        since,
        done: () => {
          clearTimeout(timeout);
          resolve();
        },
      };
      this.#waiting.push(waiter);
      this.#beat();
    });
  }

  /** Stops the heartbeat; rows then age out after PRINCIPAL_MAX_AGE_MS. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #notified(payload: string | undefined): void {
    if (!payload?.startsWith(ALIVE_PREFIX)) {
      // A change, or the LISTEN (re)established (notifications may have been missed): no payload.
      this.clear();
      return;
    }
    const sentAt = this.#sent.get(payload);
    if (sentAt === undefined) return; // another process's heartbeat
    this.#sent.delete(payload);
    if (sentAt > this.#deliveredThrough) this.#deliveredThrough = sentAt;
    if (this.#waiting.length === 0) return;
    const still = [];
    for (const waiter of this.#waiting) {
      if (waiter.since <= sentAt) waiter.done();
      else still.push(waiter);
    }
    this.#waiting = still;
  }

  #beat(): void {
    const db = this.#db as Db;
    if (db.closed()) {
      this.stop();
      return;
    }
    // Heartbeats that never came back (a lost connection) are forgotten once too old to matter.
    const stale = performance.now() - this.maxAgeMs;
    for (const [payload, sentAt] of this.#sent) if (sentAt < stale) this.#sent.delete(payload);
    const payload = `${this.#self}${this.#sequence++}`;
    this.#sent.set(payload, performance.now());
    db.notify(this.channel, payload).catch(() => {
      // The database is unreachable: no heartbeat comes back and rows age out.
    });
  }
}

const caches = new WeakMap<Db, PrincipalCache<unknown>>();

/** The cache of `db`'s process; its LISTEN starts on first use (look-ups go to the database meanwhile). */
export function principalCache<Row>(db: Db): PrincipalCache<Row> {
  let cache = caches.get(db);
  if (!cache) {
    const created = new PrincipalCache<unknown>();
    cache = created;
    caches.set(db, created);
    created.listen(db).catch(() => {
      // No LISTEN (a database that refuses it): the cache stays off and every request reads the rows.
    });
  }
  return cache as PrincipalCache<Row>;
}

/**
 * After a write of this process, before its answer is sent: resolves once what it changed (a client revoked,
 * a property disabled) has reached `db`'s cached principals. Rows the write did not touch stay cached: a
 * write used to drop every cached principal, so each write of any customer made every token's next request
 * reload its row (3-5 ms for an account of 9000 properties).
 */
export function principalsSynced(db: Db): Promise<void> {
  return caches.get(db)?.sync() ?? Promise.resolve();
}
