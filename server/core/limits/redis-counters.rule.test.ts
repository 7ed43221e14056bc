import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Cluster } from 'ioredis';
import { parseRedisUrl } from '../config.ts';
import { createLog } from '../log.ts';
import { closeRedis, connectRedis, createRedis, type RedisClient } from '../redis.ts';
import { windowsAt } from './counters.ts';
import { RedisCounters } from './redis-counters.ts';

/**
 * Concurrent takes of one subject go to Redis as one script (issue 27); what each caller learns must be what the
 * same takes one after another would have told it: the first ones granted with counts 1, 2, 3, the rest refused
 * and not counted.
 */
describe.skipIf(!process.env.REDIS_URL)('Redis counters, concurrent takes', () => {
  let redis: RedisClient;
  const prefix = `test:${crypto.randomUUID()}:`;
  beforeAll(async () => {
    redis = createRedis(parseRedisUrl(process.env.REDIS_URL as string), createLog('silent'), 'requests');
    await connectRedis(redis, createLog('silent'));
  });
  afterAll(async () => {
    await closeRedis(redis);
  });

  it('grants as many as the budget has room for, in order, each with its own count, and counts only those', async () => {
    const counters = new RedisCounters(redis, prefix);
    const windows = windowsAt(new Date());
    const budget = { perMinute: 3, perDay: 100 };
    const usages = await Promise.all(Array.from({ length: 5 }, () => counters.take('client:1', budget, windows)));
    expect(usages).toEqual([
      { allowed: true, minuteCount: 1, dayCount: 1 },
      { allowed: true, minuteCount: 2, dayCount: 2 },
      { allowed: true, minuteCount: 3, dayCount: 3 },
      { allowed: false, minuteCount: 3, dayCount: 3 },
      { allowed: false, minuteCount: 3, dayCount: 3 },
    ]);
    // Another client's budget is its own, even when taken in the same turn.
    const [other, again] = await Promise.all([
      counters.take('client:2', budget, windows),
      counters.take('client:1', budget, windows),
    ]);
    expect(other).toEqual({ allowed: true, minuteCount: 1, dayCount: 1 });
    expect(again).toEqual({ allowed: false, minuteCount: 3, dayCount: 3 });
  });

  it('stops at the day budget when it is the one with less room', async () => {
    const counters = new RedisCounters(redis, prefix);
    const windows = windowsAt(new Date());
    const budget = { perMinute: 100, perDay: 2 };
    const usages = await Promise.all(Array.from({ length: 3 }, () => counters.take('client:3', budget, windows)));
    expect(usages.map((u) => u.allowed)).toEqual([true, true, false]);
    expect(usages.map((u) => u.dayCount)).toEqual([1, 2, 2]);
  });

  // On a Redis Cluster a script's keys must share a slot: there each subject goes in scripts of its own.
  it('sends the takes of many subjects made in one turn as one script, each counted under its own budget', async () => {
    const counters = new RedisCounters(redis, prefix);
    const windows = windowsAt(new Date());
    const scripts = countScripts(redis);
    const usages = await Promise.all(
      ['a', 'b', 'c', 'b', 'a', 'a'].map((name) =>
        counters.take(`client:many-${name}`, { perMinute: 2, perDay: 100 }, windows),
      ),
    );
    expect(scripts.stop()).toBe(redis instanceof Cluster ? 3 : 1);
    expect(usages.map((u) => [u.allowed, u.minuteCount])).toEqual([
      [true, 1],
      [true, 1],
      [true, 1],
      [true, 2],
      [true, 2],
      [false, 2],
    ]);
  });

  it('cuts a burst of subjects into scripts of at most 100 lines, every take answered', async () => {
    const counters = new RedisCounters(redis, prefix);
    const windows = windowsAt(new Date());
    const scripts = countScripts(redis);
    const usages = await Promise.all(
      Array.from({ length: 250 }, (_, i) => counters.take(`client:burst-${i}`, { perMinute: 5, perDay: 100 }, windows)),
    );
    expect(scripts.stop()).toBe(redis instanceof Cluster ? 250 : 3);
    expect(usages.every((u) => u.allowed && u.minuteCount === 1 && u.dayCount === 1)).toBe(true);
  });
});

/** Counts the scripts sent through this client (they still run on the real Redis) until stop(). */
function countScripts(redis: RedisClient): { stop: () => number } {
  const original = redis.evalsha.bind(redis);
  let calls = 0;
  (redis as { evalsha: unknown }).evalsha = (...args: Parameters<typeof original>) => {
    calls++;
    return original(...args);
  };
  return {
    stop: () => {
      (redis as { evalsha: unknown }).evalsha = original;
      return calls;
    },
  };
}
