import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Haproxy } from '../../../scripts/topology/haproxy.ts';
import { until } from '../../../scripts/topology/processes.ts';
import { freePortRun } from '../../testing/free-port.ts';
import { requestFrom } from '../../testing/from-address.ts';
import { startServedTestApp } from '../../testing/harness.ts';

/**
 * The topology kit's HAProxy (scripts/topology/haproxy.ts, `option forwardfor`) in front of a service that trusts
 * it (QC_TRUSTED_PROXIES=127.0.0.1, as the kit starts its processes): each client through the balancer spends its
 * own per-address budget. Without `option forwardfor` or the trust, every client was the balancer's 127.0.0.1.
 */
let served: Awaited<ReturnType<typeof startServedTestApp>>;
let haproxy: Haproxy;
const dir = mkdtempSync(join(tmpdir(), 'qc-edges-haproxy-'));

beforeAll(async () => {
  served = await startServedTestApp({ rateLimits: 'enforce', env: { QC_TRUSTED_PROXIES: '127.0.0.1' } });
  // Two ports of one run: two separate picks could answer the same free port.
  const port = freePortRun(24000, 24999, 2);
  haproxy = new Haproxy({
    dir,
    port,
    statsPort: port + 1,
    servers: [{ name: 'qc1', port: Number(served.t.app.server?.port) }],
  });
  await haproxy.start();
  await until('HAProxy to mark the service up', async () => (await haproxy.servers()).qc1 === 'UP', 15_000);
});

afterAll(async () => {
  await haproxy?.stop();
  await served.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function remaining(from: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  const res = await requestFrom(haproxy.url, from, 'GET', '/v1/qc/no-such-route', { headers });
  expect(res.status).toBe(404);
  return res.headers['x-ratelimit-remaining'] as string | undefined;
}

describe('behind the kit HAProxy', () => {
  it('gives each client its own budget, and a client cannot borrow another one with X-Forwarded-For', async () => {
    expect(await remaining('127.0.0.31')).toBe('59');
    expect(await remaining('127.0.0.31')).toBe('58');
    expect(await remaining('127.0.0.32')).toBe('59');
    // HAProxy adds the real address after the client's claim: the right-most hop counts.
    expect(await remaining('127.0.0.33', { 'x-forwarded-for': '127.0.0.32' })).toBe('59');
    expect(await remaining('127.0.0.32')).toBe('58');
  });
});
