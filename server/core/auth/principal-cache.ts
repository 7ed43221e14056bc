import type { Db } from '../db/db.ts';

/** The channel migration 0850 notifies on, at commit, when a row that decides a principal changes. */
export const AUTH_CHANNEL = 'qc_auth';

/**
 * How long a cached client row may be used. The notification drops the cache at once; this bounds what a
 * lost notification (the listening connection down) can cost: a revocation then still applies within it.
 */
export const PRINCIPAL_MAX_AGE_MS = 500;

// Tokens are few per deployment; the bound keeps a flood of distinct valid tokens from growing memory.
const MAX_ENTRIES = 10_000;

/**
 * Who a credential is (its client row and live allow-list), kept per database handle so that every app of
 * one process shares one cache and one LISTEN connection. Only found rows are kept: an unknown or revoked
 * token is looked up every time, so a new token works at once and guessing costs a query each.
 *
 * Correctness: every write to api_clients, properties (status, group, customer) and property_groups
 * (paused) notifies AUTH_CHANNEL at commit and each process clears its cache on it; an entry is also never
 * older than PRINCIPAL_MAX_AGE_MS. Until the LISTEN is in place nothing is cached.
 */
export class PrincipalCache<Row> {
  readonly #entries = new Map<string, { row: Row; until: number }>();
  #listening = false;
  // Bumped by every clear: a look-up that started before a clear must not store what it read.
  #generation = 0;

  constructor(private readonly maxAgeMs = PRINCIPAL_MAX_AGE_MS) {}

  /** The row for `key`, from the cache or from `load` (which answers undefined for an unknown credential). */
  async get(key: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const now = performance.now();
    const hit = this.#entries.get(key);
    if (hit && hit.until > now) return hit.row;
    const generation = this.#generation;
    const row = await load();
    if (row && this.#listening && generation === this.#generation) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, { row, until: now + this.maxAgeMs });
    }
    return row;
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** Starts caching once `db` notifies this process of auth changes; without LISTEN it never caches. */
  async listen(db: Db): Promise<void> {
    await db.listen(AUTH_CHANNEL, () => this.clear());
    this.#listening = true;
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

/** Drops `db`'s cached principals now: after a write of this process, before its answer is sent. */
export function forgetPrincipals(db: Db): void {
  caches.get(db)?.clear();
}
