import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Demo } from '../demo/demo.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { GIF_1X1, PNG_1X1, registerLegacyFile, uploadImages } from './test-fixtures.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'qc-gallery-'));
const t = testAppPerFile({ env: { QC_DATA_DIR: dataDir, QC_PUBLIC_URL: 'https://qc.example.com' } });
const demo = perFile(() => t.demo());
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const roomOf = (d: Demo) => (d.properties[0]?.room_types as { id: string }[] | undefined)?.[0]?.id as string;

describe('POST /gallery', () => {
  it('stores real images by content (a PNG named .txt is a PNG) and serves them at public URLs without auth', async () => {
    const res = await uploadImages(t, demo.personal_token, [
      { name: 'pool.txt', bytes: PNG_1X1, type: 'text/plain' },
      { name: 'lobby.gif', bytes: GIF_1X1 },
    ]);
    expect(res.status).toBe(201);
    const [png, gif] = res.body.data.images;
    expect(png).toMatchObject({ content_type: 'image/png', width: 1, height: 1, byte_size: PNG_1X1.byteLength });
    expect(gif).toMatchObject({ content_type: 'image/gif', file_name: 'lobby.gif', usages: [] });
    expect(png.url).toBe(`https://qc.example.com/media/gallery/${png.id}.png`);
    const served = await t.app.handle(new Request(`http://localhost${new URL(png.url).pathname}`));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_1X1);
  });

  it('lists and shows the account images with their usages', async () => {
    const up = await uploadImages(t, demo.personal_token, [{ name: 'a.png', bytes: PNG_1X1 }]);
    const id = up.body.data.images[0].id;
    const put = await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.partner_code}/images`, {
      token: demo.personal_token,
      body: { image_ids: [id] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.image_ids).toEqual([id]);
    const shown = await t.request('GET', `/v1/qc/gallery/${id}`, { token: demo.personal_token });
    expect(shown.body.data.usages).toEqual([
      {
        kind: 'property',
        property_id: demo.properties[0]?.id,
        room_type_id: null,
        content_page_id: null,
        position: 0,
        outside_grant: false,
      },
    ]);
    const list = await t.request('GET', '/v1/qc/gallery', { token: demo.personal_token });
    expect(list.status).toBe(200);
    expect(list.body.data.images.map((i: { id: string }) => i.id)).toContain(id);
    expect(list.body.data.meta.total).toBe(list.body.data.images.length);
  });
});

describe('Idempotency-Key on the multipart upload', () => {
  it('replays the first answer for the same key and bytes (same status, headers, body) and stores once', async () => {
    const form = new FormData();
    form.append('images', new File([PNG_1X1], 'once.png', { type: 'image/png' }));
    // One encoding, so both requests carry the same boundary and bytes.
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type') as string;
    const bytes = await encoded.arrayBuffer();
    const send = () =>
      t.app.handle(
        new Request('http://localhost/v1/qc/gallery', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${demo.personal_token}`,
            'idempotency-key': 'upload-once',
            'content-type': contentType,
          },
          body: bytes,
        }),
      );
    const first = await send();
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.status).toBe(first.status);
    expect(await replay.text()).toBe(await first.text());
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const [count] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from gallery_images where customer_id = ${demo.customer_id} and file_name = 'once.png'`;
    expect(count?.n).toBe(1);
  });
});

describe('DELETE /gallery/{id}', () => {
  it('refuses a used image with 409 and usages[], then ?force=1 severs every usage and deletes', async () => {
    const up = await uploadImages(t, demo.personal_token, [{ name: 'room.png', bytes: PNG_1X1 }]);
    const image = up.body.data.images[0];
    const property = demo.properties[0]?.id;
    const room = roomOf(demo);
    await t.request('PUT', `/v1/qc/properties/${property}/room_types/${room}/images`, {
      token: demo.personal_token,
      body: { image_ids: [image.id] },
    });
    await t.request('PUT', `/v1/qc/properties/${property}/images`, {
      token: demo.personal_token,
      body: { image_ids: [image.id] },
    });

    const refused = await t.request('DELETE', `/v1/qc/gallery/${image.id}`, { token: demo.personal_token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('errors.qc.gallery_image_in_use');
    expect(refused.body.usages.map((u: { kind: string }) => u.kind).sort()).toEqual(['property', 'room_type']);
    expect(refused.body.usages.find((u: { kind: string }) => u.kind === 'room_type').room_type_id).toBe(room);

    const forced = await t.request('DELETE', `/v1/qc/gallery/${image.id}`, {
      token: demo.personal_token,
      query: { force: 1 },
    });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toEqual({ id: image.id, deleted: true, severed_usages: 2 });
    const gone = await t.request('GET', `/v1/qc/gallery/${image.id}`, { token: demo.personal_token });
    expect(gone.status).toBe(404);
    const [left] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from gallery_image_usages u join gallery_images g on g.id = u.image_id
      where g.external_id = ${image.id}`;
    expect(left?.n).toBe(0);
    const served = await t.app.handle(new Request(`http://localhost${new URL(image.url).pathname}`));
    expect(served.status).toBe(404);
  });

  it('deletes an unused image at once', async () => {
    const up = await uploadImages(t, demo.personal_token, [{ name: 'x.gif', bytes: GIF_1X1 }]);
    const res = await t.request('DELETE', `/v1/qc/gallery/${up.body.data.images[0].id}`, {
      token: demo.personal_token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.severed_usages).toBe(0);
  });
});

describe('POST /gallery/register', () => {
  it('adds a file the legacy platform stored for the account, without copying it, and keeps it on delete', async () => {
    const key = `legacy/${demo.customer_id}/file-4711`;
    await t.deps.storage.put(key, GIF_1X1, 'image/gif');
    const res = await registerLegacyFile(t, demo.personal_token, 'file-4711');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ legacy_file_id: 'file-4711', content_type: 'image/gif' });
    const again = await registerLegacyFile(t, demo.personal_token, 'file-4711');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: 'errors.qc.gallery_legacy_file_registered',
      image_id: res.body.data.id,
    });
    await t.request('DELETE', `/v1/qc/gallery/${res.body.data.id}`, { token: demo.personal_token });
    expect(await t.deps.storage.get(key)).toEqual(GIF_1X1);
  });
});
