import type { Redis } from 'ioredis';
import type { PropertyActors } from '../../actors/property-actors.ts';
import type { SigningKeys } from './auth/signing-keys.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Idempotency } from './idempotency/idempotency.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { Log } from './log.ts';

/**
 * Everything a feature needs from the outside world, built once at boot (server/main.ts) or per test
 * (server/testing/harness.ts) and passed down explicitly. Domain code takes what it needs from here;
 * no framework context goes into domain code.
 */
export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Log;
  keys: SigningKeys;
  /** The per-property serialized writers: every calendar write goes through `actors.run(propertyId, tx => ...)`. */
  actors: PropertyActors;
  /** The shared Redis connection when REDIS_URL is set (server/core/redis.ts); close it on shutdown. */
  redis?: Redis;
  /** Rate-limit budgets (spec 8.1): in Redis when configured, in this process otherwise. */
  limiter: RateLimiter;
  /** Idempotency-Key records (spec 8.3): in Redis when configured, in this process otherwise. */
  idempotency: Idempotency;
}
