import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { REDIS_BACKENDS } from '../../testing/redis-backends.ts';
import { Idempotency } from './idempotency.ts';
import { RedisIdempotencyStore } from './redis-store.ts';
import { type IdempotencyStore, MemoryIdempotencyStore } from './store.ts';

/**
 * Spec 8.3 under concurrency: N identical keyed writes sent at once, with fast-check's scheduler choosing
 * the order in which their store calls (claim, complete) resolve, produce exactly one write and N
 * byte-identical bodies, whatever the interleaving.
 */
for (const backend of REDIS_BACKENDS) {
  describe(`Idempotency-Key under concurrent identical writes (${backend.name})`, () => {
    const t = testAppPerFile({ env: backend.env });
    const demo = perFile(() => t.demo());

    it('writes once and answers every request with the same bytes', async () => {
      const store: IdempotencyStore = t.deps.redis
        ? new RedisIdempotencyStore(t.deps.redis, `qc-test:${crypto.randomUUID()}:`)
        : new MemoryIdempotencyStore();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.scheduler(), async (n, s) => {
          const scheduled: IdempotencyStore = {
            claim: s.scheduleFunction((key: string, fingerprint: string, nowMs: number, leaseMs: number) =>
              store.claim(key, fingerprint, nowMs, leaseMs),
            ),
            peek: (key, nowMs) => store.peek(key, nowMs),
            renew: (key, lease, leaseMs) => store.renew(key, lease, leaseMs),
            complete: s.scheduleFunction((key, lease, response, expiresAtMs) =>
              store.complete(key, lease, response, expiresAtMs),
            ),
            release: s.scheduleFunction((key: string, lease: string) => store.release(key, lease)),
          };
          t.deps.idempotency = new Idempotency(scheduled, t.deps.log);
          const code = `PROP-${Date.now()}-${++run}`;
          const body = {
            name: 'Concurrent Hotel',
            type_id: 1,
            currency: 'EUR',
            timezone: 'Europe/Lisbon',
            partner_code: code,
          };
          const headers = { 'idempotency-key': `property-test-${code}` };
          const sent = Promise.all(
            Array.from({ length: n }, () =>
              t.request('POST', '/v1/qc/properties', { token: demo.personal_token, body, headers }),
            ),
          );
          const replies = await s.waitFor(sent);

          const [written] = await t.deps.db.sql<{
            n: number;
          }>`select count(*)::int as n from properties where partner_code = ${code}`;
          expect(written?.n).toBe(1);
          expect(new Set(replies.map((r) => r.text)).size).toBe(1);
          expect(replies.map((r) => r.status)).toEqual(Array(n).fill(201));
          expect(replies.filter((r) => r.headers.get('idempotency-replayed') === 'true')).toHaveLength(n - 1);
        }),
        { numRuns: 15 },
      );
    });
  });
}
