import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServedTestApp } from '../testing/harness.ts';
import { acceptsGzip } from './compressed-body.ts';

/**
 * The large static answers (the 1.5 MB OpenAPI document, the API reference bundle) go gzipped over real HTTP
 * to a client that accepts gzip, and as they are to one that does not.
 */
let served: Awaited<ReturnType<typeof startServedTestApp>>;
beforeAll(async () => {
  served = await startServedTestApp();
});
afterAll(() => served.stop());

// `decompress: false` keeps the bytes as they crossed the wire.
const raw = (path: string, acceptEncoding: string) =>
  fetch(`${served.baseUrl}${path}`, { headers: { 'accept-encoding': acceptEncoding }, decompress: false });

describe('compressed static answers', () => {
  for (const path of ['/v1/qc/openapi.json', '/v1/qc/openapi.yaml', '/v1/qc/docs/api-reference.js']) {
    it(`answers ${path} gzipped when the client accepts gzip, the same bytes once unpacked`, async () => {
      const plain = await raw(path, 'identity');
      const zipped = await raw(path, 'gzip, deflate, br');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
      expect(plain.headers.get('vary')).toBe('Accept-Encoding');
      expect(zipped.headers.get('content-type')).toBe(plain.headers.get('content-type'));
      const plainBytes = new Uint8Array(await plain.arrayBuffer());
      const zippedBytes = new Uint8Array(await zipped.arrayBuffer());
      expect(zippedBytes.length).toBeLessThan(plainBytes.length / 3);
      expect(Bun.gunzipSync(zippedBytes)).toEqual(plainBytes);
    });
  }

  it('answers the document as it is to a client that refuses gzip or names no encoding', async () => {
    for (const header of ['gzip;q=0', 'br', '']) {
      const res = await raw('/v1/qc/openapi.json', header);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(JSON.parse(await res.text()).openapi).toStartWith('3.1');
    }
  });

  it('reads Accept-Encoding by its q-values', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br;q=1, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});
