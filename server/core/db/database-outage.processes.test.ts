import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import { ServerProcess } from '../../testing/server-process.ts';
import { ThrowawayPostgres } from '../../testing/throwaway-postgres.ts';

/**
 * Issue 16 defect 7: with PostgreSQL stopped, requests took 12-29 s to answer 500 and recovery lagged about
 * 12 s; with PostgreSQL hung, requests hung 25 s. A real `server/main.ts` on a PRIVATE cluster (the shared one
 * is never stopped), default QC_DB_TIMEOUT_MS (2 s): outages answer 503 with Retry-After, recovery follows the
 * database's return.
 *
 * The requirement is a duration ("within about 2 s"), so these tests measure wall-clock time, with
 * bounds well above the 2 s target (the machine is shared by several test runs) and well below what failed.
 */
const OPERATOR = 'database-outage-operator-token';
const ANSWER_BOUND_MS = 5000;

describe('a PostgreSQL outage', () => {
  let pg: ThrowawayPostgres;
  let server: ServerProcess;
  let demo: Demo;

  beforeAll(async () => {
    pg = await ThrowawayPostgres.start();
    server = await ServerProcess.start({ DATABASE_URL: pg.url, REDIS_URL: '', QC_OPERATOR_TOKEN: OPERATOR });
    demo = ((await (await call('POST', '/ops/demo', OPERATOR)).json()) as { data: Demo }).data;
  }, 60_000);
  afterAll(async () => {
    // Stop everything first: a failed expectation must not leave a server (or a cluster) running for later files.
    pg?.thaw();
    const code = await server?.stop();
    await pg?.destroy();
    expect(code).toBe(0);
  }, 30_000);

  function call(method: string, path: string, token: string, body?: unknown) {
    return fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function timed(method: string, path: string, token: string, body?: unknown) {
    const started = performance.now();
    const res = await call(method, path, token, body);
    return { res, body: (await res.json()) as { status: string; message: string }, ms: performance.now() - started };
  }

  async function expectUnavailable(answer: Awaited<ReturnType<typeof timed>>) {
    expect(answer.res.status).toBe(503);
    expect(answer.body).toMatchObject({ status: 'error', message: 'errors.service_unavailable' });
    expect(Number(answer.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
  }

  /** Polls until the route answers 200; answers how long that took after the database came back. */
  async function recovery(path: string): Promise<number> {
    const started = performance.now();
    for (;;) {
      const res = await call('GET', path, demo.personal_token);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
      if (performance.now() - started > 10_000) throw new Error(`no recovery within 10 s (last ${res.status})`);
      await Bun.sleep(50);
    }
  }

  it('answers 503 with Retry-After at once while PostgreSQL is stopped, and serves again when it is back', async () => {
    expect((await call('GET', '/v1/qc/properties', demo.personal_token)).status).toBe(200);
    await pg.stop();
    await expectUnavailable(await timed('GET', '/v1/qc/properties', demo.personal_token));
    await expectUnavailable(await timed('POST', '/ops/properties', OPERATOR, newProperty('Stopped Inn')));
    await pg.start();
    // Reconnect backoff is capped at 0.5 s; the driver's own grew to 20 s.
    expect(await recovery('/v1/qc/properties')).toBeLessThan(ANSWER_BOUND_MS);
  }, 60_000);

  it('answers 503 within the deadline while PostgreSQL hangs, applies nothing, and serves again when it resumes', async () => {
    const shadow = demo.properties.find((p) => p.mode === 'shadow')?.external_property_id as string;
    expect((await call('GET', '/v1/qc/properties', demo.personal_token)).status).toBe(200);
    pg.freeze();
    try {
      const [read, write] = await Promise.all([
        timed('GET', '/v1/qc/properties', demo.personal_token),
        timed('PUT', `/ops/properties/${shadow}/mode`, OPERATOR, { mode: 'live' }),
      ]);
      await expectUnavailable(read);
      await expectUnavailable(write);
    } finally {
      pg.thaw();
    }
    expect(await recovery('/v1/qc/properties')).toBeLessThan(ANSWER_BOUND_MS);
    // The write answered 503 was not applied behind the client's back once PostgreSQL resumed.
    await Bun.sleep(200);
    const after = await call('GET', `/v1/qc/properties/${shadow}`, demo.personal_token);
    expect(((await after.json()) as { data: { mode: string } }).data.mode).toBe('shadow');
  }, 60_000);

  const newProperty = (name: string) => ({
    customer_id: demo.customer_id,
    name,
    currency: 'EUR',
    timezone: 'Europe/Berlin',
  });
});
