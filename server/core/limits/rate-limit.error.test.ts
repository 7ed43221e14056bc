import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { startTestApp, type TestApp } from '../../testing/harness.ts';
import { REDIS_BACKENDS } from '../../testing/redis-backends.ts';
import { ManualClock } from '../clock.ts';

/** Spent budgets (spec 8.1) through HTTP, on Redis and on the in-process limiter. */
for (const backend of REDIS_BACKENDS) {
  describe(`rate-limit refusals (${backend.name})`, () => {
    let t: TestApp;
    let demo: Demo;

    beforeAll(async () => {
      t = await startTestApp({
        rateLimits: 'enforce',
        env: backend.env,
        clock: new ManualClock('2030-03-01T00:00:00Z'),
      });
      demo = await t.demo();
    });
    afterAll(() => t.close());

    /** Moves the clock `intoMinute` ms into the next minute and answers that minute's reset (Unix seconds). */
    function nextMinute(intoMinute = 17_600): number {
      const minute = Math.floor(t.clock.now().getTime() / 60_000) + 1;
      t.clock.set(new Date(minute * 60_000 + intoMinute));
      return (minute + 1) * 60;
    }

    /** Spends a token's 300 reads of the minute, 50 at a time, each answered. */
    async function spendReads(token: string): Promise<void> {
      for (let batch = 0; batch < 6; batch++) {
        const replies = await Promise.all(
          Array.from({ length: 50 }, () => t.request('GET', '/v1/qc/properties', { token })),
        );
        expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
      }
    }

    const propertyCount = async (customerId: number) =>
      Number(
        (
          await t.deps.db.sql<{
            n: number;
          }>`select count(*)::int as n from properties where customer_id = ${customerId}`
        )[0]?.n,
      );

    it('answers 429 errors.qc.rate_limit_exceeded with Retry-After agreeing with X-RateLimit-Reset, and serves again after it', async () => {
      const reset = nextMinute(17_600);
      const { client_id, client_secret } = demo.client;
      const form = { grant_type: 'client_credentials', client_id, client_secret };
      for (let i = 0; i < 10; i++) expect((await t.request('POST', '/v1/qc/oauth/token', { form })).status).toBe(200);

      const refused = await t.request('POST', '/v1/qc/oauth/token', { form });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(errorEnvelope('errors.qc.rate_limit_exceeded'));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset')).toBe(String(reset));
      // 17.6 s into the minute: 43 s to the boundary, counted from the current whole second.
      expect(refused.headers.get('retry-after')).toBe('43');
      const now = Math.floor(t.clock.now().getTime() / 1000);
      expect(now + Number(refused.headers.get('retry-after'))).toBe(reset);
      expect(refused.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);

      t.clock.advance(42_000);
      expect((await t.request('POST', '/v1/qc/oauth/token', { form })).status).toBe(429);
      t.clock.advance(1_000);
      const again = await t.request('POST', '/v1/qc/oauth/token', { form });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-ratelimit-remaining')).toBe('9');
    });

    it('does no work for a refused request: the 61st property create in a minute writes nothing', async () => {
      nextMinute();
      const owner = await t.demo();
      const before = await propertyCount(owner.customer_id);
      const create = (i: number) =>
        t.request('POST', '/v1/qc/properties', {
          token: owner.personal_token,
          body: {
            name: `Budget ${i}`,
            type_id: 1,
            currency: 'EUR',
            timezone: 'Europe/Lisbon',
            partner_code: `BUDGET-${i}`,
          },
        });
      for (let i = 0; i < 60; i++) expect((await create(i)).status).toBe(201);
      const refused = await create(60);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-bucket')).toBe('config-writes');
      expect(await propertyCount(owner.customer_id)).toBe(before + 60);
    });

    it('answers a read over budget 429 with the headers, never its rows or its own refusal', async () => {
      // The budget is spent before the read runs and before its query is validated: the list (200), an unknown
      // property (404) and a bad page (422) past the budget, each for an owner of its own, are all 429.
      const reset = nextMinute();
      const firstRefused = {
        list: '/v1/qc/properties',
        unknown: '/v1/qc/properties/00000000-0000-4000-8000-000000000000',
        invalid: '/v1/qc/properties?page=0',
      };
      for (const [what, path] of Object.entries(firstRefused)) {
        const owner = await t.demo();
        const token = owner.personal_token;
        await spendReads(token);
        const refused = await t.request('GET', path, { token });
        expect({ what, status: refused.status }).toEqual({ what, status: 429 });
        expect(refused.body).toEqual(errorEnvelope('errors.qc.rate_limit_exceeded'));
        expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(refused.headers.get('x-ratelimit-reset')).toBe(String(reset));
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('runs no query for a read past its budget: refused before the handler, whatever came before it', async () => {
      nextMinute();
      const owner = await t.demo();
      const other = await t.demo();
      const token = owner.personal_token;
      await spendReads(token);

      const db = t.deps.db;
      const sql = db.sql;
      let listed = 0;
      db.sql = ((strings: TemplateStringsArray, ...values: unknown[]) => {
        if (strings.join('$').includes('from properties where id = any')) listed++;
        return sql(strings, ...values);
      }) as typeof sql;
      try {
        const refused = await Promise.all(
          Array.from({ length: 20 }, () => t.request('GET', '/v1/qc/properties', { token })),
        );
        expect(refused.map((r) => r.status)).toEqual(Array(20).fill(429));
        expect(listed).toBe(0);
        // The count sees the list's query: another customer's read, within its budget, runs it.
        expect((await t.request('GET', '/v1/qc/properties', { token: other.personal_token })).status).toBe(200);
        expect(listed).toBe(1);
      } finally {
        db.sql = sql;
      }
    });

    it('does not hold an Idempotency-Key for a refused request: the retry after the reset runs', async () => {
      nextMinute();
      const owner = await t.demo();
      const body = { name: 'Keyed', type_id: 1, currency: 'EUR', timezone: 'Europe/Lisbon', partner_code: 'KEYED-429' };
      for (let i = 0; i < 60; i++) {
        await t.request('PATCH', `/v1/qc/properties/${owner.properties[0]?.external_property_id}`, {
          token: owner.personal_token,
          body: {},
        });
      }
      const headers = { 'idempotency-key': 'after-the-limit' };
      expect(
        (await t.request('POST', '/v1/qc/properties', { token: owner.personal_token, body, headers })).status,
      ).toBe(429);
      nextMinute();
      const retry = await t.request('POST', '/v1/qc/properties', { token: owner.personal_token, body, headers });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotency-replayed')).toBeNull();
    });

    it('refuses until 00:00 UTC once the day budget is spent, with Reset and Retry-After pointing there', async () => {
      t.clock.set('2030-03-02T00:00:00Z');
      const form = { grant_type: 'client_credentials', client_id: 'nobody-at-all', client_secret: 'x' };
      // The token endpoint allows 500 a day to an address: 50 minutes of 10.
      for (let minute = 0; minute < 50; minute++) {
        t.clock.set(new Date(Date.parse('2030-03-02T00:00:00Z') + minute * 60_000 + 5_000));
        const replies = await Promise.all(
          Array.from({ length: 10 }, () => t.request('POST', '/v1/qc/oauth/token', { form })),
        );
        expect(replies.map((r) => r.status)).toEqual(Array(10).fill(401));
      }
      t.clock.set('2030-03-02T13:00:00.500Z');
      const refused = await t.request('POST', '/v1/qc/oauth/token', { form });
      expect(refused.status).toBe(429);
      const midnight = Date.parse('2030-03-03T00:00:00Z') / 1000;
      expect(refused.headers.get('x-ratelimit-reset')).toBe(String(midnight));
      expect(refused.headers.get('retry-after')).toBe(String(11 * 3600));

      t.clock.set('2030-03-03T00:00:01Z');
      expect((await t.request('POST', '/v1/qc/oauth/token', { form })).status).toBe(401);
    });

    it('counts each inventory-writes endpoint separately, 20 a minute each', async () => {
      const property = demo.properties[0]?.external_property_id;
      // The budget is spent before body validation, so an empty body (422) counts like a push.
      const push = async (kind: string) => {
        const res = await t.request('POST', `/v1/qc/properties/${property}/inventory/${kind}`, {
          token: demo.personal_token,
          body: {},
        });
        return {
          status: res.status,
          bucket: res.headers.get('x-ratelimit-bucket'),
          remaining: res.headers.get('x-ratelimit-remaining'),
        };
      };
      nextMinute();
      for (let i = 0; i < 20; i++) expect((await push('availability')).status).toBe(422);
      expect(await push('availability')).toEqual({ status: 429, bucket: 'inventory-writes', remaining: '0' });
      expect(await push('rates')).toEqual({ status: 422, bucket: 'inventory-writes', remaining: '19' });
      expect(await push('restrictions')).toEqual({ status: 422, bucket: 'inventory-writes', remaining: '19' });
    });
  });
}
