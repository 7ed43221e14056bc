import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { GIF_1X1, JPEG_3X2, PNG_1X1, registerLegacyFile, uploadImages, WEBP_3X2 } from './test-fixtures.ts';

/**
 * Issue 25 N13: a PNG with an HTML page appended was stored and served whole; a 12,000 x 12,000 image was
 * accepted; file names were stored as sent (`../../..`); images were served without `Content-Disposition` or a
 * CSP. Now: bytes after the image's end are dropped from uploads (a legacy file carrying them is refused, since
 * it is served as stored), a pixel bound holds besides the side bound, names are cleaned, and the media route
 * answers `Content-Disposition: inline` under the image's own id and a CSP that runs and loads nothing.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

const HTML = new TextEncoder().encode('<html><body><script>alert(document.cookie)</script></body></html>');
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

/** PNG_1X1 with its header claiming another size (image-size reads the header; the pixels need not exist). */
function pngClaiming(width: number, height: number): Uint8Array {
  const bytes = PNG_1X1.slice();
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}

async function served(url: string) {
  const res = await t.app.handle(new Request(url));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('gallery image safety', () => {
  it('stores and serves only the image of a polyglot: the HTML appended to a PNG, GIF, JPEG or WebP is dropped', async () => {
    for (const [name, image, type] of [
      ['a.png', PNG_1X1, 'image/png'],
      ['a.gif', GIF_1X1, 'image/gif'],
      ['a.jpg', JPEG_3X2, 'image/jpeg'],
      ['a.webp', WEBP_3X2, 'image/webp'],
    ] as const) {
      const res = await uploadImages(t, demo.personal_token, [{ name, bytes: concat(image, HTML), type }]);
      expect([name, res.status]).toEqual([name, 201]);
      const data = res.body.data.images[0];
      expect([name, data.byte_size, data.content_type]).toEqual([name, image.byteLength, type]);
      const { res: media, bytes } = await served(data.url);
      expect(media.status).toBe(200);
      expect(bytes).toEqual(image);
    }
  });

  it('serves images inline under their own id, with a CSP that runs and loads nothing, and nosniff', async () => {
    const res = await uploadImages(t, demo.personal_token, [{ name: 'lobby.png', bytes: PNG_1X1 }]);
    const url = res.body.data.images[0].url as string;
    const { res: media } = await served(url);
    expect(media.headers.get('content-disposition')).toBe(`inline; filename="${url.split('/').at(-1)}"`);
    expect(media.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(media.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses an image over 50 megapixels even when each side is within 12,000', async () => {
    for (const [width, height] of [
      [12_000, 12_000],
      [8_000, 8_000],
    ] as const) {
      const res = await uploadImages(t, demo.personal_token, [{ name: 'big.png', bytes: pngClaiming(width, height) }]);
      expect([width, res.status, res.body.message]).toEqual([width, 422, 'errors.qc.gallery_image_too_large']);
    }
  });

  it('refuses a file whose image structure breaks off before its end (a truncated PNG)', async () => {
    const res = await uploadImages(t, demo.personal_token, [{ name: 'cut.png', bytes: PNG_1X1.slice(0, 40) }]);
    expect([res.status, res.body.message]).toEqual([422, 'errors.qc.gallery_not_an_image']);
  });

  it('stores a safe file name: the last path segment, odd characters replaced, never empty', async () => {
    const names: [string, string][] = [
      ['../../../etc/passwd', 'passwd'],
      ['..\\..\\boot.ini', 'boot.ini'],
      ['<script>x</script>.png', 'script_.png'],
      ["a;b|c?*'.png", 'a_b_c___.png'],
      ['..', 'image.png'],
      ['Zimmer 12 (Seeblick).png', 'Zimmer 12 (Seeblick).png'],
    ];
    for (const [sent, stored] of names) {
      const res = await uploadImages(t, demo.personal_token, [{ name: sent, bytes: PNG_1X1 }]);
      expect([sent, res.status, res.body.data.images[0].file_name]).toEqual([sent, 201, stored]);
    }
  });

  it('refuses to register a legacy file with bytes after its image: it would be served as stored', async () => {
    const customer = demo.customer_id;
    await t.deps.storage.put(`legacy/${customer}/polyglot.png`, concat(PNG_1X1, HTML), 'image/png');
    const res = await registerLegacyFile(t, demo.personal_token, 'polyglot.png');
    expect([res.status, res.body.message]).toEqual([422, 'errors.qc.gallery_not_an_image']);
    await t.deps.storage.put(`legacy/${customer}/clean.png`, PNG_1X1, 'image/png');
    expect((await registerLegacyFile(t, demo.personal_token, 'clean.png')).status).toBe(201);
  });
});
