import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { ThrowawayRedis } from '../testing/throwaway-redis.ts';
import { countPartnerCode, holdPartnerCode, newPropertyBody } from './idempotency/test-support.ts';

/**
 * Redis stopped mid-test (spec 8.1, 8.3.8): requests are still served, unlimited and undeduplicated; the
 * failures are logged and counted in /readyz, which reports Redis down while the process stays ready (a
 * balancer must not take every process out for a dependency they all serve without); when Redis is back,
 * both resume.
 * Uses a private redis-server: the machine's Redis is shared and never stopped.
 */
describe('a Redis outage', () => {
  let redis: ThrowawayRedis;
  let t: TestApp;
  let demo: Demo;
  let token: string;
  const newProperty = () => newPropertyBody('OUTAGE', 'Outage Hotel');

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    t = await startTestApp({ env: { REDIS_URL: redis.url }, rateLimits: 'enforce' });
    demo = await t.demo();
    token = demo.personal_token;
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  const readyz = async () =>
    (await t.request('GET', '/readyz')) as {
      status: number;
      body: {
        status: string;
        checks: Record<string, string>;
        fail_open: { rate_limits: number; idempotency: number };
      };
    };
  const countCode = (code: string) => countPartnerCode(t, code);

  it('serves reads and writes without limits or deduplication, reports it, and resumes when Redis is back', async () => {
    const up = await readyz();
    expect(up.status).toBe(200);
    expect(up.body.checks.redis).toBe('ok');
    expect(up.body.fail_open).toEqual({ rate_limits: 0, idempotency: 0 });
    const counted = await t.request('GET', '/v1/qc/properties', { token });
    expect(counted.headers.get('x-ratelimit-remaining')).toBe('299');

    await redis.stop();

    const read = await t.request('GET', '/v1/qc/properties', { token });
    expect(read.status).toBe(200);
    // Uncounted, but the headers are still there.
    expect(read.headers.get('x-ratelimit-bucket')).toBe('reads');
    expect(read.headers.get('x-ratelimit-remaining')).toBe('300');

    const property = demo.properties[0]?.external_property_id;
    const headers = { 'idempotency-key': 'during-the-outage' };
    const patch = { partner_name: 'Written without Redis' };
    const first = await t.request('PATCH', `/v1/qc/properties/${property}`, { token, body: patch, headers });
    const retry = await t.request('PATCH', `/v1/qc/properties/${property}`, { token, body: patch, headers });
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    const created = newProperty();
    expect(
      (
        await t.request('POST', '/v1/qc/properties', {
          token,
          body: created,
          headers: { 'idempotency-key': created.partner_code },
        })
      ).status,
    ).toBe(201);
    expect(await countCode(created.partner_code)).toBe(1);

    const down = await readyz();
    expect(down.status).toBe(200);
    expect(down.body.status).toBe('degraded');
    expect(down.body.checks).toEqual({ database: 'ok', redis: 'down' });
    expect(down.body.fail_open.rate_limits).toBeGreaterThanOrEqual(4);
    expect(down.body.fail_open.idempotency).toBeGreaterThanOrEqual(3);

    await redis.start();
    const deadline = Date.now() + 10_000;
    while ((await readyz()).body.checks.redis !== 'ok' && Date.now() < deadline) await Bun.sleep(100);
    expect((await readyz()).body.status).toBe('ok');
    const again = newProperty();
    const keyed = { 'idempotency-key': again.partner_code };
    expect((await t.request('POST', '/v1/qc/properties', { token, body: again, headers: keyed })).status).toBe(201);
    const replay = await t.request('POST', '/v1/qc/properties', { token, body: again, headers: keyed });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect((await t.request('GET', '/v1/qc/properties', { token })).headers.get('x-ratelimit-remaining')).toBe('299');
  }, 30_000);

  it('still answers a keyed write whose response cannot be stored because Redis died while it ran', async () => {
    const body = newProperty();
    // Hold the insert on the partner code's unique index until Redis is gone.
    const release = await holdPartnerCode(t, demo.customer_id, body.partner_code);
    const before = (await readyz()).body.fail_open.idempotency;

    const write = t.request('POST', '/v1/qc/properties', {
      token,
      body,
      headers: { 'idempotency-key': body.partner_code },
    });
    await Bun.sleep(200);
    await redis.stop();
    await release();

    const res = await write;
    expect(res.status).toBe(201);
    expect(await countCode(body.partner_code)).toBe(1);
    expect((await readyz()).body.fail_open.idempotency).toBe(before + 1);
  }, 30_000);
});
