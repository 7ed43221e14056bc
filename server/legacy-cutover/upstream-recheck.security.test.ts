import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Server } from 'bun';
import { type LegacyFixture, legacyFixture } from '../../legacy/legacy-test-fixture.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { forceLive, type LegacyCall, send, setMode } from './cutover-test-fixture.ts';
import { UPSTREAM_VERDICT_TTL_MS, UpstreamDestinations } from './upstream-url.ts';

/**
 * Issue 25 N11 re-check: a legacy upstream was checked only when an operator set it, so a destination that
 * later resolves to a blocked address was still called, and QC_LEGACY_UPSTREAM_URL was never checked at all.
 * The destination is now checked before every forward (verdicts kept briefly per process); a refused one
 * answers the legacy 502 and is never called. The stand-in legacy service listens on loopback: a blocked
 * address unless the operator allows private upstreams (`allow_private_upstream`, QC_LEGACY_UPSTREAM_ALLOW_PRIVATE).
 */
let hits = 0;
let upstream: Server<undefined>;
const apps: TestApp[] = [];
const UNREACHABLE = '{"message":"Throw Error Exception\\nMsg: Legacy service unreachable\\nCode: 0"}';
const read: LegacyCall = { method: 'GET', path: 'property/getRoomsDetails' };

beforeAll(() => {
  upstream = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch() {
      hits++;
      return new Response('{"message":"Success"}', { headers: { 'content-type': 'application/json' } });
    },
  });
});

afterAll(async () => {
  upstream.stop(true);
  for (const app of apps) await app.close();
});

async function appWith(env: Record<string, string>): Promise<{ t: TestApp; f: LegacyFixture }> {
  const t = await startTestApp({ env });
  apps.push(t);
  return { t, f: await legacyFixture(t) };
}

describe('the legacy upstream, checked before every forward', () => {
  it('refuses a QC_LEGACY_UPSTREAM_URL on a loopback address unless QC_LEGACY_UPSTREAM_ALLOW_PRIVATE=1', async () => {
    const strict = await appWith({ QC_LEGACY_UPSTREAM_URL: upstream.url.href });
    const { key, keyId } = await strict.f.anotherKey();
    await setMode(strict.t, keyId, 'shadow');
    const before = hits;
    const refused = await send(strict.t, read, key);
    expect([refused.status, refused.text]).toEqual([502, UNREACHABLE]);
    expect(hits).toBe(before);

    const allowing = await appWith({
      QC_LEGACY_UPSTREAM_URL: upstream.url.href,
      QC_LEGACY_UPSTREAM_ALLOW_PRIVATE: '1',
    });
    const other = await allowing.f.anotherKey();
    await setMode(allowing.t, other.keyId, 'shadow');
    const forwarded = await send(allowing.t, read, other.key);
    expect([forwarded.status, forwarded.text]).toEqual([200, '{"message":"Success"}']);
    expect(hits).toBe(before + 1);
  });

  it('refuses a key URL that now points at a blocked address, though it was accepted when set', async () => {
    const { t, f } = await appWith({});
    const { key, keyId } = await f.anotherKey();
    // Accepted with the operator's override, then the override is withdrawn for the same URL.
    await setMode(t, keyId, 'shadow', upstream.url.href);
    const before = hits;
    expect((await send(t, read, key)).status).toBe(200);
    expect(hits).toBe(before + 1);
    // As a name re-pointed to a loopback address would be after its check: stored, not allowed private.
    await t.deps.db.sql`update legacy_api_keys set allow_private_upstream = false where id = ${keyId}`;
    const refused = await send(t, read, key);
    expect([refused.status, refused.text]).toEqual([502, UNREACHABLE]);
    expect(hits).toBe(before + 1);
  });

  it('never forwards to a link-local (cloud metadata) destination, override or not', async () => {
    const { t, f } = await appWith({
      QC_LEGACY_UPSTREAM_URL: 'http://169.254.169.254/latest/',
      QC_LEGACY_UPSTREAM_ALLOW_PRIVATE: '1',
      // Were it called, the answer would be a 504 after this long, not the refusal's 502.
      QC_LEGACY_UPSTREAM_TIMEOUT_MS: '60000',
    });
    const { key, keyId } = await f.anotherKey();
    await setMode(t, keyId, 'shadow');
    const refused = await send(t, read, key);
    expect([refused.status, refused.text]).toEqual([502, UNREACHABLE]);
  });

  it('shows the override with the key and drops it with the URL', async () => {
    const { t, f } = await appWith({});
    const { keyId } = await f.anotherKey();
    await setMode(t, keyId, 'shadow', upstream.url.href);
    expect((await t.ops('GET', `/ops/legacy-keys/${keyId}`)).body.data.allow_private_upstream).toBe(true);
    await forceLive(t, keyId, null);
    expect((await t.ops('GET', `/ops/legacy-keys/${keyId}`)).body.data.allow_private_upstream).toBe(false);
  });
});

describe('forward-time verdicts', () => {
  it('catch a name re-pointed to a blocked address once the kept verdict expires, asking DNS once meanwhile', async () => {
    let address = '93.184.216.34';
    let lookups = 0;
    let now = 0;
    const destinations = new UpstreamDestinations(
      async () => {
        lookups++;
        return [{ address, family: 4 }];
      },
      () => now,
    );
    const url = 'http://legacy.example.com/';
    expect(await destinations.problem(url, false)).toBeUndefined();
    address = '169.254.169.254';
    now = UPSTREAM_VERDICT_TTL_MS - 1;
    expect(await destinations.problem(url, false)).toBeUndefined();
    expect(lookups).toBe(1);
    now = UPSTREAM_VERDICT_TTL_MS;
    expect(await destinations.problem(url, false)).toBe('link_local');
    address = '10.0.0.7';
    now = 2 * UPSTREAM_VERDICT_TTL_MS;
    expect([await destinations.problem(url, false), await destinations.problem(url, true)]).toEqual([
      'private_address',
      undefined,
    ]);
  });

  it('count a host that does not resolve in time as unresolvable, not a hung request', async () => {
    const destinations = new UpstreamDestinations(
      () => new Promise(() => {}),
      () => performance.now(),
      10,
    );
    expect(await destinations.problem('http://hung-dns.example/', true)).toBe('unresolvable_host');
  });
});
