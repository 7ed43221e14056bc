import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Server } from 'bun';
import { requestFrom } from '../../testing/from-address.ts';
import { startServedTestApp } from '../../testing/harness.ts';
import { ConfigError, parseConfig } from '../config.ts';

/**
 * Behind a balancer every connection comes from the balancer, so every per-address budget counted all strangers
 * as one caller and the cutover named the balancer in its `Forwarded`. With QC_TRUSTED_PROXIES the client is
 * read from the trusted proxy's X-Forwarded-For (the right-most hop that is not a trusted proxy); a direct
 * client's forwarding headers are still ignored. Here 127.0.0.1 plays the balancer and 127.0.0.x the clients.
 */
type Served = Awaited<ReturnType<typeof startServedTestApp>>;
let behindProxy: Served;
let direct: Served;
let upstream: Server<undefined>;
const received: Headers[] = [];

beforeAll(async () => {
  upstream = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      received.push(request.headers);
      return new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } });
    },
  });
  behindProxy = await startServedTestApp({
    rateLimits: 'enforce',
    env: { QC_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' },
  });
  direct = await startServedTestApp({ rateLimits: 'enforce' });
});

afterAll(async () => {
  upstream.stop(true);
  await behindProxy.stop();
  await direct.stop();
});

/** An unmatched path spends the `public` budget of its caller's address; the header says how much is left. */
async function remaining(served: Served, from: string, forwardedFor?: string): Promise<string | undefined> {
  const res = await requestFrom(served.baseUrl, from, 'GET', '/v1/qc/no-such-route', {
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  expect(res.status).toBe(404);
  return res.headers['x-ratelimit-remaining'] as string | undefined;
}

describe('the client address behind a trusted proxy', () => {
  it('gives each client named by the trusted balancer its own budget', async () => {
    expect(await remaining(behindProxy, '127.0.0.1', '198.51.100.1')).toBe('59');
    expect(await remaining(behindProxy, '127.0.0.1', '198.51.100.1')).toBe('58');
    // Another client through the same balancer: a fresh budget, not the balancer's.
    expect(await remaining(behindProxy, '127.0.0.1', '198.51.100.2')).toBe('59');
  });

  it('takes the right-most hop that is not a trusted proxy, never what the client wrote to its left', async () => {
    // The client claimed 198.51.100.1 (whose budget is spent above); the balancer appended the real one, then an
    // inner trusted proxy (10.0.0.5) its own.
    expect(await remaining(behindProxy, '127.0.0.1', '198.51.100.1, 198.51.100.3, 10.0.0.5')).toBe('59');
    expect(await remaining(behindProxy, '127.0.0.1', '198.51.100.3')).toBe('58');
  });

  it('ignores forwarding headers from a peer that is not a trusted proxy', async () => {
    // 127.0.0.20 is a client, not a proxy: its header would otherwise spend 198.51.100.2's budget.
    expect(await remaining(behindProxy, '127.0.0.20', '198.51.100.2')).toBe('59');
    expect(await remaining(behindProxy, '127.0.0.20', '198.51.100.9')).toBe('58');
  });

  it('trusts no proxy by default: a spoofed X-Forwarded-For buys no fresh budget', async () => {
    expect(await remaining(direct, '127.0.0.21', '198.51.100.4')).toBe('59');
    expect(await remaining(direct, '127.0.0.21', '198.51.100.5')).toBe('58');
  });

  it('spends the token endpoint wrong-secret budget of the client, not of the balancer', async () => {
    const token = (forwardedFor: string) =>
      requestFrom(behindProxy.baseUrl, '127.0.0.1', 'POST', '/v1/qc/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
        body: 'grant_type=client_credentials&client_id=nobody&client_secret=wrong',
      });
    let last = await token('198.51.100.6');
    for (let i = 0; i < 30 && last.status !== 429; i++) last = await token('198.51.100.6');
    expect(last.status).toBe(429);
    // Another client behind the same balancer still reaches the endpoint.
    expect((await token('198.51.100.7')).status).toBe(401);
  });

  it('names the client, not the balancer, in the legacy cutover proxy Forwarded', async () => {
    const demo = await behindProxy.t.demo();
    const key = await behindProxy.t.ops('POST', '/ops/legacy-keys', {
      property_id: demo.properties[0]?.id,
      mode: 'shadow',
      upstream_url: `http://127.0.0.1:${upstream.port}`,
      allow_private_upstream: true,
    });
    expect(key.status).toBe(200);
    const res = await requestFrom(
      behindProxy.baseUrl,
      '127.0.0.1',
      'GET',
      `/api/pms/v1/booking/getBookings?api_key=${key.body.data.api_key}`,
      { headers: { 'x-forwarded-for': '2001:db8::7' } },
    );
    expect(res.status).toBe(200);
    expect(received.at(-1)?.get('forwarded')).toStartWith('for="[2001:db8::7]";');
    expect(received.at(-1)?.get('x-forwarded-for')).toBe('2001:db8::7');
  });
});

describe('QC_TRUSTED_PROXIES', () => {
  it('accepts addresses and CIDRs of both families, and trusts nothing when unset', () => {
    const proxies = parseConfig({ QC_TRUSTED_PROXIES: '10.0.0.0/8 ::1,fd00::/8' }).trustedProxies;
    expect(['10.1.2.3', '::ffff:10.1.2.3', '::1', 'fd12::1', '11.0.0.1', '::2'].map((a) => proxies.trusts(a))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(parseConfig({}).trustedProxies.entries).toEqual([]);
    expect(parseConfig({}).trustedProxies.header).toBe('x-forwarded-for');
  });

  it('stops start-up on an entry that is not an address or CIDR', () => {
    for (const bad of ['balancer.internal', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129'])
      expect(() => parseConfig({ QC_TRUSTED_PROXIES: bad })).toThrow(ConfigError);
  });
});

describe('one place reads the socket peer', () => {
  it('has no requestIP call outside client-address.ts', () => {
    const root = join(import.meta.dir, '../../..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && entry.name !== 'client-address.ts')
          if (readFileSync(path, 'utf8').includes('.requestIP(')) offenders.push(relative(root, path));
      }
    };
    for (const dir of ['server', 'legacy', 'scripts', 'harness']) walk(join(root, dir));
    expect(offenders).toEqual([]);
  });
});
