/**
 * The two homes of rate-limit counters and idempotency records: Redis (REDIS_URL, as the suite runs) and
 * this process's memory (the embedded default). Tests of those rules run once per backend, through
 * `startTestApp({ env: backend.env })`, to show both behave the same.
 */
export const REDIS_BACKENDS: readonly { name: string; env: Record<string, string> }[] = [
  { name: 'Redis', env: {} },
  { name: 'in-process', env: { REDIS_URL: '' } },
];
