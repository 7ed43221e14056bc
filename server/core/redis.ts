import { createHash } from 'node:crypto';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from './config.ts';
import { errorFields, type Log } from './log.ts';
import { withTimeout } from './timeout.ts';

/** One Redis or a Redis Cluster (REDIS_URL `redis+cluster://`): the commands the service sends work on both. */
export type RedisClient = Redis | Cluster;

/**
 * What a connection is for. `requests` (rate limits, idempotency) must fail open: an outage turns into a fast
 * error instead of a request that hangs. With the offline queue off, a command sent while disconnected fails
 * at once; commandTimeout bounds a Redis that accepts the connection but stops answering; auto-pipelining
 * sends the scripts of concurrent requests in one write. `queue` (BullMQ) wants the opposite trade-off:
 * commands wait out a hiccup (offline queue, no retry limit, no timeout), as BullMQ requires.
 */
export type RedisUse = 'requests' | 'queue';

const USES: Record<RedisUse, Pick<RedisOptions, 'maxRetriesPerRequest' | 'commandTimeout' | 'enableOfflineQueue'>> = {
  requests: { commandTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false },
  queue: { commandTimeout: undefined, maxRetriesPerRequest: null, enableOfflineQueue: true },
};

// Keep reconnecting (capped backoff) so service resumes by itself when Redis comes back.
const reconnectAfter = (attempt: number) => Math.min(attempt * 200, 2000);

/** The one way to open a Redis connection: one server or a cluster, as REDIS_URL says. */
export function createRedis(target: RedisTarget, log: Log, use: RedisUse): RedisClient {
  const { enableOfflineQueue, ...perCommand } = USES[use];
  const lazyConnect = use === 'requests';
  const enableAutoPipelining = use === 'requests';
  const redis =
    target.kind === 'single'
      ? new Redis(target.url, {
          connectTimeout: 1000,
          retryStrategy: reconnectAfter,
          enableOfflineQueue,
          lazyConnect,
          enableAutoPipelining,
          ...perCommand,
        })
      : new Cluster(target.nodes, {
          redisOptions: {
            connectTimeout: 1000,
            username: target.username,
            password: target.password,
            tls: target.tls ? {} : undefined,
            ...perCommand,
          },
          clusterRetryStrategy: reconnectAfter,
          enableOfflineQueue,
          lazyConnect,
          enableAutoPipelining,
          // A master that died is replaced by its replica after the cluster's node timeout: ask again for the
          // slot map every 2 s (and at once on a MOVED or a closed connection) so commands follow the promotion.
          slotsRefreshInterval: 2000,
          slotsRefreshTimeout: 1000,
          retryDelayOnFailover: 200,
          retryDelayOnClusterDown: 200,
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
export async function connectRedis(redis: RedisClient, log: Log, ms = 1000): Promise<void> {
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
export async function closeRedis(redis: RedisClient): Promise<void> {
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

  async run(redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
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

const breakers = new WeakMap<RedisClient, Breaker>();

export function breakerOf(redis: RedisClient): Breaker {
  let breaker = breakers.get(redis);
  if (!breaker) {
    breaker = { suspendedUntil: 0, timeouts: 0 };
    breakers.set(redis, breaker);
  }
  return breaker;
}

/**
 * The Redis line of /readyz. Every Redis user fails open, so Redis down is reported (`checks.redis: down`,
 * `status: degraded`) but does not make the process unready: it is down for every process at once, and a
 * balancer that took them all out would turn a degraded service into none. A cluster is up when the node
 * asked says every slot is served (`cluster_state:ok`).
 */
export function redisProbe(redis: RedisClient) {
  return {
    name: 'redis',
    required: false,
    async check() {
      if (redis instanceof Cluster) {
        const info = String(await redis.cluster('INFO'));
        if (!/^cluster_state:ok\b/m.test(info)) throw new Error(`cluster not serving every slot: ${info.slice(0, 40)}`);
        return;
      }
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
    },
  };
}
