import { afterAll, beforeAll, expect } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { ServerProcess } from './server-process.ts';
import { ThrowawayRedis } from './throwaway-redis.ts';

/** Two server processes of one test file, a private Redis between them, and a demo made through `a`. */
export interface TwoProcesses {
  a: ServerProcess;
  b: ServerProcess;
  demo: Demo;
}

/**
 * Starts, before the file's tests, two `bun server/main.ts` processes on the test database sharing a private
 * Redis (counts start at zero on every run), one after the other (the first applies pending migrations), and
 * makes a demo customer through the first with `operatorToken`. After the tests it stops everything before
 * asserting both exited 0, so a failed expectation never leaves a server or Redis running for later files.
 * Read the fields inside hooks and tests.
 */
export function twoProcessesPerFile(operatorToken: string): TwoProcesses {
  const made: Partial<TwoProcesses> = {};
  let redis: ThrowawayRedis | undefined;
  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      DATABASE_SESSION_URL: process.env.DATABASE_SESSION_URL,
      REDIS_URL: redis.url,
      QC_OPERATOR_TOKEN: operatorToken,
    };
    made.a = await ServerProcess.start(env);
    made.b = await ServerProcess.start(env);
    const res = await fetch(`${made.a.url}/ops/demo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    if (res.status !== 200) throw new Error(`POST /ops/demo answered ${res.status}: ${await res.text()}`);
    made.demo = ((await res.json()) as { data: Demo }).data;
  }, 60_000);
  afterAll(async () => {
    const codes = await Promise.all([made.a?.stop(), made.b?.stop()]);
    await redis?.stop();
    expect(codes).toEqual([0, 0]);
  });
  const field = <K extends keyof TwoProcesses>(key: K) => {
    const value = made[key];
    if (!value) throw new Error('the two processes start in a before hook: use them inside hooks and tests');
    return value as TwoProcesses[K];
  };
  return {
    get a() {
      return field('a');
    },
    get b() {
      return field('b');
    },
    get demo() {
      return field('demo');
    },
  };
}
