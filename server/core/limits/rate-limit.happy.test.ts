import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { type Reply, startTestApp, type TestApp } from '../../testing/harness.ts';
import { REDIS_BACKENDS } from '../../testing/redis-backends.ts';
import { ManualClock } from '../clock.ts';

/**
 * Spec 8.1 through HTTP, on Redis (REDIS_URL) and on the in-process limiter: the same behaviour on both.
 * The clock is a ManualClock, so the minute window and its reset are known to the second.
 */
const NEW_PROPERTY = { name: 'Limits Hotel', type_id: 1, currency: 'EUR', timezone: 'Europe/Lisbon' };

for (const backend of REDIS_BACKENDS) {
  describe(`rate-limit headers and budgets (${backend.name})`, () => {
    let t: TestApp;
    let demo: Demo;
    let property: string;

    beforeAll(async () => {
      t = await startTestApp({
        rateLimits: 'enforce',
        env: backend.env,
        clock: new ManualClock('2030-01-01T00:00:30.250Z'),
      });
      demo = await t.demo();
      property = demo.properties[0]?.external_property_id as string;
    });
    afterAll(() => t.close());

    /** Moves the clock 30.25 s into the next minute: a fresh window with a known reset. */
    function nextMinute(): number {
      const minute = Math.floor(t.clock.now().getTime() / 60_000) + 1;
      t.clock.set(new Date(minute * 60_000 + 30_250));
      return (minute + 1) * 60;
    }

    function expectHeaders(res: Reply, bucket: string, limit: number, reset: number) {
      expect(res.headers.get('x-ratelimit-bucket')).toBe(bucket);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(reset));
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(res.headers.get('retry-after')).toBeNull();
    }

    it('puts X-RateLimit-Limit, -Remaining, -Reset (next minute boundary) and -Bucket on success and error responses', async () => {
      const reset = nextMinute();
      const reader = await t.client({
        customer_id: demo.customer_id,
        scopes: ['inventory.read'],
        property_ids: [property],
      });
      const token = demo.personal_token;
      const answers: [Reply, string, number, number][] = [
        [await t.request('GET', '/v1/qc/properties', { token }), 'reads', 300, 200],
        [await t.request('GET', '/v1/qc/.well-known/jwks.json'), 'reads', 300, 200],
        [await t.request('GET', '/v1/qc/properties'), 'reads', 300, 401],
        [
          await t.request('GET', '/v1/qc/properties/00000000-0000-4000-8000-000000000000', { token }),
          'reads',
          300,
          404,
        ],
        [
          await t.request('POST', '/v1/qc/properties', { token: reader.token, body: NEW_PROPERTY }),
          'config-writes',
          60,
          403,
        ],
        [await t.request('POST', '/v1/qc/properties', { token, body: { name: 'No type' } }), 'config-writes', 60, 422],
        [await t.request('POST', '/v1/qc/properties', { token, raw: '{"name": ' }), 'config-writes', 60, 422],
        // An unparsable body is still authenticated first: without a token it is a 401, not a 422.
        [await t.request('POST', '/v1/qc/properties', { raw: '{"name": ' }), 'config-writes', 60, 401],
        [
          await t.request('POST', '/v1/qc/oauth/token', {
            form: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
          }),
          'token',
          10,
          401,
        ],
      ];
      for (const [res, bucket, limit, status] of answers) {
        expect(res.status).toBe(status);
        expectHeaders(res, bucket, limit, reset);
      }
    });

    it('counts Remaining down per client and bucket, and starts afresh at the next minute', async () => {
      nextMinute();
      const a = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [property] });
      const b = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [property] });
      const remaining = async (token: string) =>
        Number((await t.request('GET', '/v1/qc/properties', { token })).headers.get('x-ratelimit-remaining'));
      expect([
        await remaining(a.token),
        await remaining(a.token),
        await remaining(b.token),
        await remaining(a.token),
      ]).toEqual([299, 298, 299, 297]);
      // Another bucket of the same client has its own budget.
      const denied = await t.request('POST', '/v1/qc/properties', { token: a.token, body: NEW_PROPERTY });
      expect(denied.headers.get('x-ratelimit-remaining')).toBe('59');

      const reset = nextMinute();
      const fresh = await t.request('GET', '/v1/qc/properties', { token: a.token });
      expect(fresh.headers.get('x-ratelimit-remaining')).toBe('299');
      expect(fresh.headers.get('x-ratelimit-reset')).toBe(String(reset));
    });

    // On Redis the takes of clients reading at once go to Redis in one script (server/core/limits/redis-counters.ts).
    it('counts each client down from its own budget when several read at once', async () => {
      nextMinute();
      const a = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [property] });
      const b = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [property] });
      const replies = await Promise.all(
        [a, b, a, b, a].map((c) => t.request('GET', '/v1/qc/properties', { token: c.token })),
      );
      const remaining = (of: number[]) =>
        of.map((i) => Number(replies[i]?.headers.get('x-ratelimit-remaining'))).sort((x, y) => y - x);
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(remaining([0, 2, 4])).toEqual([299, 298, 297]);
      expect(remaining([1, 3])).toEqual([299, 298]);
    });

    it("lets every personal token of one owner spend the owner's budget", async () => {
      nextMinute();
      const owner = await t.demo();
      const { createClient } = await import('../../oauth/clients.ts');
      const second = await createClient(t.deps, {
        kind: 'personal',
        customerId: owner.customer_id,
        scopes: ['inventory.read'],
        accountScoped: true,
        propertyIds: [],
        endpointScopes: [],
      });
      const first = await t.request('GET', '/v1/qc/properties', { token: owner.personal_token });
      const other = await t.request('GET', '/v1/qc/properties', { token: second.secret });
      expect(first.headers.get('x-ratelimit-remaining')).toBe('299');
      expect(other.headers.get('x-ratelimit-remaining')).toBe('298');
    });

    it('gives a premium-tier client 600 reads a minute and refuses the 601st', async () => {
      const reset = nextMinute();
      const premium = await t.client({
        customer_id: demo.customer_id,
        scopes: ['inventory.read'],
        property_ids: [property],
        tier: 'premium',
      });
      const statuses: number[] = [];
      for (let batch = 0; batch < 12; batch++) {
        const replies = await Promise.all(
          Array.from({ length: 50 }, () => t.request('GET', '/v1/qc/properties', { token: premium.token })),
        );
        statuses.push(...replies.map((r) => r.status));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(600);
      const refused = await t.request('GET', '/v1/qc/properties', { token: premium.token });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('600');
      expect(refused.headers.get('x-ratelimit-reset')).toBe(String(reset));
    });

    it('counts the token endpoint per known client_id, and per address for unknown ids', async () => {
      nextMinute();
      const form = (client_id: string, client_secret = 'wrong') => ({
        grant_type: 'client_credentials',
        client_id,
        client_secret,
      });
      for (let i = 0; i < 10; i++) {
        // Inventing a new id per attempt does not buy a new budget.
        const res = await t.request('POST', '/v1/qc/oauth/token', { form: form(`unknown-${i}`) });
        expect(res.status).toBe(401);
      }
      const eleventh = await t.request('POST', '/v1/qc/oauth/token', { form: form('unknown-10') });
      expect(eleventh.status).toBe(429);
      expect(eleventh.body).toEqual(errorEnvelope('errors.qc.rate_limit_exceeded'));

      // A known client has its own budget, whichever address it calls from.
      const { client_id, client_secret } = demo.client;
      const own = await t.request('POST', '/v1/qc/oauth/token', { form: form(client_id, client_secret) });
      expect(own.status).toBe(200);
      expect(own.headers.get('x-ratelimit-bucket')).toBe('token');
      expect(own.headers.get('x-ratelimit-remaining')).toBe('9');
    });
  });
}
