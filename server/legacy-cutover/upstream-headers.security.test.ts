import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Server } from 'bun';
import type { Demo } from '../demo/demo.ts';
import { requestFrom } from '../testing/from-address.ts';
import { startServedTestApp } from '../testing/harness.ts';

/**
 * Issue 25 N6: in shadow mode the cutover forwarded every client header to the legacy service: spoofed
 * `X-Forwarded-For`, `X-Real-IP` and `Forwarded`, `Proxy-Authorization`, and headers the client named in
 * `Connection`; it added no forwarding header of its own. It now forwards only what the legacy service reads and
 * names the real peer in its own `Forwarded`.
 */
let served: Awaited<ReturnType<typeof startServedTestApp>>;
let demo: Demo;
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
  served = await startServedTestApp();
  demo = await served.t.demo();
});

afterAll(async () => {
  upstream.stop(true);
  await served.stop();
});

async function shadowKey(): Promise<string> {
  const res = await served.t.ops('POST', '/ops/legacy-keys', {
    property_id: demo.properties[0]?.id,
    mode: 'shadow',
    upstream_url: `http://127.0.0.1:${upstream.port}`,
    allow_private_upstream: true,
  });
  expect(res.status).toBe(200);
  return res.body.data.api_key;
}

describe('the cutover proxy toward the legacy service', () => {
  it('forwards only the headers the legacy service reads and names the real peer in its own Forwarded', async () => {
    const key = await shadowKey();
    const res = await requestFrom(
      served.baseUrl,
      '127.0.0.9',
      'POST',
      `/api/pms/v1/booking/getBookings?api_key=${key}`,
      {
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'AcmePMS/7.4',
          'x-forwarded-for': '203.0.113.7',
          'x-real-ip': '203.0.113.7',
          forwarded: 'for=203.0.113.7;proto=https',
          'x-forwarded-proto': 'https',
          'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
          authorization: 'Bearer qc_not-for-legacy',
          cookie: 'session=abc',
          connection: 'keep-alive, x-named-hop, user-agent',
          'x-named-hop': 'drop me',
          'x-anything-else': 'not read by the legacy service',
        },
        body: '{}',
      },
    );
    expect(res.status).toBe(200);
    // The legacy service's answer reaches the PMS with nosniff, like every answer of the service.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const got = received.at(-1) as Headers;
    expect(got.get('content-type')).toBe('application/json');
    expect(got.get('accept')).toBe('application/json');
    for (const name of [
      'x-real-ip',
      'proxy-authorization',
      'authorization',
      'cookie',
      'x-named-hop',
      'x-anything-else',
    ])
      expect([name, got.get(name)]).toEqual([name, null]);
    // Named in Connection by the client: hop-by-hop, even though the legacy service would read it (the HTTP
    // client then sends its own).
    expect(got.get('user-agent')).not.toBe('AcmePMS/7.4');
    expect(got.get('forwarded')).toBe(`for=127.0.0.9;proto=http;host="127.0.0.1:${served.t.app.server?.port}"`);
    expect(got.get('x-forwarded-for')).toBe('127.0.0.9');
    expect(got.get('x-forwarded-proto')).toBe('http');
  });

  it('keeps the User-Agent when the client does not name it in Connection', async () => {
    const key = await shadowKey();
    await requestFrom(served.baseUrl, '127.0.0.10', 'GET', `/api/pms/v1/booking/getBookings?api_key=${key}`, {
      headers: { 'user-agent': 'AcmePMS/7.4' },
    });
    expect(received.at(-1)?.get('user-agent')).toBe('AcmePMS/7.4');
  });
});
