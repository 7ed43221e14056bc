import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { ThrowawayRedis } from '../testing/throwaway-redis.ts';
import { breakerOf } from './redis.ts';

/**
 * Issue 16 defect 7: a hung Redis (connections open, no answers) made every request wait for the 1 s
 * command timeout. After one timeout, request-path commands fail open at once for a while: ten requests
 * against a frozen Redis cost one timeout, not ten. A private redis-server, frozen with SIGSTOP.
 */
describe('a hung Redis', () => {
  let redis: ThrowawayRedis;
  let t: TestApp;
  let demo: Demo;

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    t = await startTestApp({ env: { REDIS_URL: redis.url }, rateLimits: 'enforce' });
    demo = await t.demo();
  });
  afterAll(async () => {
    redis.thaw();
    await t.close();
    await redis.stop();
  });

  it('pays the command timeout once, then serves uncounted at once until Redis answers again', async () => {
    const redisClient = t.deps.redis;
    if (!redisClient) throw new Error('the app has no Redis client');
    const read = () => t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect((await read()).headers.get('x-ratelimit-remaining')).toBe('299');
    redis.freeze();
    const failuresBefore = t.deps.limiter.failures;
    for (let i = 0; i < 10; i++) expect((await read()).status).toBe(200);
    // Every one of the ten was served uncounted (fail open), but only the first waited for Redis.
    expect(t.deps.limiter.failures - failuresBefore).toBe(10);
    expect(breakerOf(redisClient).timeouts).toBe(1);
    redis.thaw();
    breakerOf(redisClient).suspendedUntil = 0;
    // Counting again; the command that timed out was still in Redis's socket and ran when it resumed.
    expect((await read()).headers.get('x-ratelimit-remaining')).toBe('297');
  }, 30_000);
});
