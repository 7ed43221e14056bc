import { describe, expect, it } from 'bun:test';
import { perFile, startTestApp, testAppPerFile } from '../testing/harness.ts';
import { MAX_IMAGE_BYTES } from './image-content.ts';
import { GIF_1X1, MemoryStorage, PNG_1X1, registerLegacyFile, uploadImages } from './test-fixtures.ts';

const storage = new MemoryStorage();
const t = testAppPerFile({ storage });
const demo = perFile(() => t.demo());

const countImages = async (customerId: number) =>
  (
    await t.deps.db.sql<{ n: number }>`select count(*)::int as n from gallery_images where customer_id = ${customerId}`
  )[0]?.n;

describe('POST /gallery refusals', () => {
  it('refuses a non-image named like an image with 422 gallery_not_an_image and stores nothing of the request', async () => {
    const [images, files] = [await countImages(demo.customer_id), storage.files.size];
    const res = await uploadImages(t, demo.personal_token, [
      { name: 'ok.png', bytes: PNG_1X1 },
      { name: 'invoice.png', bytes: new TextEncoder().encode('%PDF-1.7 not an image'), type: 'image/png' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.gallery_not_an_image', file: 'invoice.png', index: 1 });
    expect(await countImages(demo.customer_id)).toBe(images);
    expect(storage.files.size).toBe(files);
  });

  it('refuses an SVG (it carries script) as not an image', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');
    const res = await uploadImages(t, demo.personal_token, [{ name: 'logo.svg', bytes: svg, type: 'image/svg+xml' }]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.gallery_not_an_image');
  });

  it('refuses a file over 10 MiB with 422 gallery_image_too_large', async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG_1X1);
    const res = await uploadImages(t, demo.personal_token, [{ name: 'huge.png', bytes: big }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.gallery_image_too_large', file: 'huge.png', index: 0 });
  });

  it('refuses a request without images with 422 validation_error', async () => {
    const form = new FormData();
    form.append('title', 'no files');
    const res = await t.app.handle(
      new Request('http://localhost/v1/qc/gallery', {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.personal_token}` },
        body: form,
      }),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      message: 'errors.validation_error',
      errors: { images: expect.any(Array) },
    });
  });
});

describe('a storage that refuses', () => {
  it('answers 500 gallery_upload_failed, removes what it had stored and records nothing', async () => {
    const refusing = new MemoryStorage();
    const app = await startTestApp({ storage: refusing });
    try {
      const fresh = await app.demo();
      const stored = new Map(refusing.files);
      // The first file is stored, the second refused: the first must go again.
      refusing.refuseAfter(1);
      const res = await uploadImages(app, fresh.personal_token, [
        { name: 'one.png', bytes: PNG_1X1 },
        { name: 'two.gif', bytes: GIF_1X1 },
      ]);
      expect(res.status).toBe(500);
      expect(res.body.message).toBe('errors.qc.gallery_upload_failed');
      expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-[0-9A-F]{16}$/);
      expect(refusing.files).toEqual(stored);
      const [rows] = await app.deps.db.sql<{ images: number; events: number }>`
        select (select count(*)::int from gallery_images where customer_id = ${fresh.customer_id}) as images,
          (select count(*)::int from outbox_events where customer_id = ${fresh.customer_id} and type like 'gallery_image.%') as events`;
      // Only the demo's own image and its event.
      expect(rows).toEqual({ images: 1, events: 1 });
    } finally {
      await app.close();
    }
  });
});

describe('usages and register refusals', () => {
  it('refuses to attach an image id that is not in the account gallery with 422', async () => {
    const res = await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.id}/images`, {
      token: demo.personal_token,
      body: { image_ids: [crypto.randomUUID()] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.gallery_image_not_found');
  });

  it('refuses an image id listed twice in two letter cases, as it refuses one listed twice alike, attaching nothing', async () => {
    const property = demo.properties[0]?.id;
    const up = await uploadImages(t, demo.personal_token, [{ name: 'twice.png', bytes: PNG_1X1 }]);
    const id: string = up.body.data.images[0].id;
    const res = await t.request('PUT', `/v1/qc/properties/${property}/images`, {
      token: demo.personal_token,
      body: { image_ids: [id, id.toUpperCase()] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ image_ids: ['customer.gallery_image.messages.unique'] });
    const page = await t.request('POST', `/v1/qc/properties/${property}/content_pages`, {
      token: demo.personal_token,
      body: { slug: 'twice', title: 'Twice', image_ids: [id.toUpperCase(), id] },
    });
    expect(page.body.errors).toEqual({ image_ids: ['customer.content_page.messages.unique'] });
    const shown = await t.request('GET', `/v1/qc/gallery/${id}`, { token: demo.personal_token });
    expect(shown.body.data.usages).toEqual([]);
  });

  it('refuses an unknown legacy file id with 422 gallery_legacy_file_not_found', async () => {
    const res = await registerLegacyFile(t, demo.personal_token, 'no-such-file');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.gallery_legacy_file_not_found');
  });

  it('refuses a legacy file id that tries to leave the account folder', async () => {
    const res = await registerLegacyFile(t, demo.personal_token, '../1/file');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ legacy_file_id: ['customer.gallery_image.messages.format'] });
  });

  it('refuses a legacy file id of dots alone (the folder or its parent) with 422, never 500', async () => {
    for (const id of ['.', '..', '...']) {
      const res = await registerLegacyFile(t, demo.personal_token, id);
      expect([id, res.status, res.body.errors]).toEqual([
        id,
        422,
        { legacy_file_id: ['customer.gallery_image.messages.format'] },
      ]);
    }
  });
});
