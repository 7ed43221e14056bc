import type { SigningKeys } from './auth/signing-keys.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { LagTolerantReads } from './db/replica.ts';
import type { Idempotency } from './idempotency/idempotency.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { Log } from './log.ts';
import type { RedisClient } from './redis.ts';
import type { RouteSpec } from './routes/route-spec.ts';
import type { ObjectStorage } from './storage/object-storage.ts';

/**
 * Everything a feature needs from the outside world, built once at boot (server/main.ts) or per test
 * (server/testing/harness.ts) and passed down explicitly. Domain code takes what it needs from here;
 * no framework context goes into domain code.
 */
export interface Deps {
  config: Config;
  db: Db;
  /** Reads that tolerate lag: the read replica while it keeps up (DATABASE_REPLICA_URL), else `db`. */
  reads: LagTolerantReads;
  clock: Clock;
  log: Log;
  keys: SigningKeys;
  /** The per-property serialized writers: every calendar write goes through `actors.run(propertyId, tx => ...)`. */
  actors: PropertyActors;
  /** Every modern route (server/route-table.ts): read by GET /permissions and endpoint_scopes validation. */
  routes: readonly RouteSpec[];
  /** The shared Redis (or Redis Cluster) connection when REDIS_URL is set (server/core/redis.ts); close it on shutdown. */
  redis?: RedisClient;
  /** Rate-limit budgets (spec 8.1): in Redis when configured, in this process otherwise. */
  limiter: RateLimiter;
  /** Idempotency-Key records (spec 8.3): in Redis when configured, in this process otherwise. */
  idempotency: Idempotency;
  /** Uploaded files (gallery images): the data directory by default, an S3-compatible store when configured. */
  storage: ObjectStorage;
}

/**
 * The per-property serialized writers, implemented in actors/property-actors.ts. Declared here so that core
 * depends on nothing above it.
 */
export interface PropertyActors {
  /** Runs `work` in the property's turn: one transaction holding its lock; re-entrant within the turn. */
  run<T>(propertyId: number, work: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs `work` in the property's turn and rolls back everything it wrote; answers what it returned. */
  dryRun<T>(propertyId: number, work: (tx: Db) => Promise<T>): Promise<T>;
  /** Whether the current code runs inside a dry-run turn (everything it writes will be rolled back). */
  inDryRun(): boolean;
  /** Resolves once every queued turn has finished (graceful shutdown). */
  drain(): Promise<void>;
  /** Live mailboxes (idle ones are released). */
  readonly size: number;
}
