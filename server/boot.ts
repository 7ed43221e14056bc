import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PropertyActors } from '../actors/property-actors.ts';
import { revisionCustomerFillPending } from './bookings/revision-customer-fill.ts';
import { loadKeyEncryptionKey } from './core/auth/key-encryption.ts';
import { randomSecret } from './core/auth/secrets.ts';
import { SigningKeys } from './core/auth/signing-keys.ts';
import { type Clock, systemClock } from './core/clock.ts';
import type { Config } from './core/config.ts';
import type { Db } from './core/db/db.ts';
import { migrate } from './core/db/migrate.ts';
import { openDbForStart, openMigrationDb } from './core/db/open.ts';
import { openPostgres } from './core/db/postgres.ts';
import { primaryOnly, ReplicaReads } from './core/db/replica.ts';
import type { Deps } from './core/deps.ts';
import { Idempotency } from './core/idempotency/idempotency.ts';
import { RedisIdempotencyStore } from './core/idempotency/redis-store.ts';
import { MemoryIdempotencyStore } from './core/idempotency/store.ts';
import { MemoryCounters } from './core/limits/counters.ts';
import { RateLimiter } from './core/limits/rate-limiter.ts';
import { RedisCounters } from './core/limits/redis-counters.ts';
import { createLog, type Log } from './core/log.ts';
import { connectRedis, createRedis } from './core/redis.ts';
import type { ObjectStorage } from './core/storage/object-storage.ts';
import { openStorage } from './core/storage/open-storage.ts';
import { routeCatalogue } from './route-table.ts';

export interface BootOptions {
  clock?: Clock;
  log?: Log;
  /** An already-open database (tests share one pool per process). */
  db?: Db;
  /** Prefix of every Redis key this instance writes (tests isolate themselves with a unique one). */
  redisKeyPrefix?: string;
  /** False: budgets are counted and shown in headers but never refuse (test apps of other features). */
  enforceRateLimits?: boolean;
  /** How long a request waits for a running request with the same Idempotency-Key (spec: 30 s). */
  idempotencyWaitMs?: number;
  /** Another file store than the configured one (tests hand in one that refuses). */
  storage?: ObjectStorage;
  /** Start-up progress for people watching `npm start` (opening, each migration, keys, Redis). */
  progress?: (step: string) => void;
}

/** Opens the database, applies migrations, loads signing keys: everything Deps holds, ready to serve. */
export async function createDeps(config: Config, options: BootOptions = {}): Promise<Deps> {
  const log = options.log ?? createLog(config.logLevel);
  const progress = options.progress ?? (() => {});
  progress(config.databaseUrl ? 'connecting to PostgreSQL' : `opening the embedded database in ${config.dataDir}`);
  const opened = options.db ? { db: options.db, migrated: async () => {} } : await openDbForStart(config, log);
  const db = opened.db;
  const migration = openMigrationDb(config, db);
  const applied = await migrate(
    migration.db,
    (file, index, pending) => progress(`applying migration ${index + 1}/${pending}: ${file}`),
    {
      onLockBusy: (file, attempt) =>
        log.warn('migration waiting for a table lock; trying again', { migration: file, attempt }),
    },
  ).finally(() => migration.done());
  if (applied.length) log.info('migrations applied', { applied });
  if (await revisionCustomerFillPending(db))
    log.warn('booking revisions wait for their customer: run npm run revisions:customer-backfill', {
      see: "docs/operations.md, Revisions' customer",
    });
  // Before the signing keys and the demo: the template is the migrated database and nothing of this installation.
  await opened.migrated();
  const clock = options.clock ?? systemClock;
  progress('loading signing keys');
  const keys = new SigningKeys(db, (await loadKeyEncryptionKey(config)).key, clock);
  await keys.load();
  const redis = config.redis ? createRedis(config.redis, log, 'requests') : undefined;
  if (redis) progress('connecting to Redis');
  if (redis) await connectRedis(redis, log);
  const prefix = options.redisKeyPrefix ?? 'qc:';
  const limiter = new RateLimiter(
    redis ? new RedisCounters(redis, prefix) : new MemoryCounters(),
    log,
    options.enforceRateLimits ?? true,
  );
  const idempotency = new Idempotency(
    redis ? new RedisIdempotencyStore(redis, prefix) : new MemoryIdempotencyStore(),
    log,
    options.idempotencyWaitMs,
  );
  // Only beside PostgreSQL: the embedded database has no replica.
  const reads =
    config.databaseReplicaUrl && db.kind === 'postgres'
      ? new ReplicaReads(
          db,
          openPostgres(config.databaseReplicaUrl, { max: 5, timeoutMs: config.dbTimeoutMs }),
          config.replicaMaxLagMs,
          log,
        )
      : primaryOnly(db);
  return {
    config,
    db,
    reads,
    clock,
    log,
    keys,
    actors: new PropertyActors(db, config.actorTurnsPerCustomer, config.actorYieldMs),
    routes: routeCatalogue,
    redis,
    limiter,
    idempotency,
    storage: options.storage ?? openStorage(config),
  };
}

/** QC_OPERATOR_TOKEN, or one generated on first start and kept in the data dir. */
export function operatorToken(config: Config): { token: string; generated: boolean } {
  if (config.operatorToken) return { token: config.operatorToken, generated: false };
  const file = join(config.dataDir, 'operator-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const token = `qcop_${randomSecret()}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
}
