import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { errorFields, type Log } from './log.ts';
import { withTimeout } from './timeout.ts';

/**
 * The one way to open a Redis connection. The defaults suit request-path callers (rate limits,
 * idempotency) that must fail open: an outage turns into a fast error instead of a request that hangs.
 * With the offline queue off, a command sent while disconnected fails at once; commandTimeout bounds a
 * Redis that accepts the connection but stops answering. A BullMQ worker needs the opposite trade-off:
 * pass `{ maxRetriesPerRequest: null, enableOfflineQueue: true, commandTimeout: undefined }`.
 */
export function createRedis(url: string, log: Log, overrides: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Keep reconnecting (capped backoff) so service resumes by itself when Redis comes back.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: true,
    ...overrides,
  });
  let down = false;
  redis.on('error', (err) => {
    // ioredis emits an error per failed reconnect; log the transition, not every attempt.
    if (down) return;
    down = true;
    log.warn('redis unavailable', { ...errorFields(err), stack: undefined });
  });
  redis.on('ready', () => {
    if (down) log.info('redis available again');
    down = false;
  });
  return redis;
}

/**
 * Connects, waiting at most `ms`. An unreachable Redis does not stop start-up: every caller fails open and
 * the client keeps retrying in the background.
 */
export async function connectRedis(redis: Redis, log: Log, ms = 1000): Promise<void> {
  try {
    await withTimeout(redis.connect(), ms);
  } catch (err) {
    log.warn('redis not reachable at start; rate limits and idempotency fail open until it is', {
      ...errorFields(err),
      stack: undefined,
    });
  }
}

/** Closes without waiting for replies that may never come (a Redis that went away). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

/** A Lua script run by SHA (EVALSHA), loaded on first use or after a Redis restart (NOSCRIPT). */
export class RedisScript {
  readonly #sha: string;
  constructor(readonly lua: string) {
    this.#sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const breaker = breakerOf(redis);
    if (Date.now() < breaker.suspendedUntil) throw new Error('redis suspended after a command timed out');
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (err instanceof Error && /timed out/i.test(err.message)) {
        breaker.timeouts++;
        breaker.suspendedUntil = Date.now() + SUSPEND_AFTER_TIMEOUT_MS;
      }
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/**
 * A Redis that accepts connections but stops answering costs each command the full commandTimeout (1 s),
 * and every request makes one or two: after a timeout, request-path scripts fail at once (and so fail open)
 * for this long, then one tries again.
 */
const SUSPEND_AFTER_TIMEOUT_MS = 2000;

interface Breaker {
  suspendedUntil: number;
  /** Commands that ran into commandTimeout (tests read it). */
  timeouts: number;
}

const breakers = new WeakMap<Redis, Breaker>();

export function breakerOf(redis: Redis): Breaker {
  let breaker = breakers.get(redis);
  if (!breaker) {
    breaker = { suspendedUntil: 0, timeouts: 0 };
    breakers.set(redis, breaker);
  }
  return breaker;
}

/** The readiness probe for /readyz. */
export function redisProbe(redis: Redis) {
  return {
    name: 'redis',
    async check() {
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
    },
  };
}
