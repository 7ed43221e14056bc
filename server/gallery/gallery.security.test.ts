import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { MemoryStorage, PNG_1X1, uploadImages } from './test-fixtures.ts';

const t = testAppPerFile({ storage: new MemoryStorage() });
const demo = perFile(() => t.demo());
const other = perFile(() => t.demo());

describe('gallery across customers and allow-lists', () => {
  it("answers 404 for another customer's image (show, delete) and lists only the caller's own", async () => {
    const up = await uploadImages(t, other.personal_token, [{ name: 'theirs.png', bytes: PNG_1X1 }]);
    const id = up.body.data.images[0].id;
    expect((await t.request('GET', `/v1/qc/gallery/${id}`, { token: demo.personal_token })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/qc/gallery/${id}`, { token: demo.personal_token })).status).toBe(404);
    const list = await t.request('GET', '/v1/qc/gallery', { token: demo.personal_token });
    expect(list.body.data.images.map((i: { id: string }) => i.id)).not.toContain(id);
  });

  it("cannot attach another customer's image, nor attach to a property outside the allow-list", async () => {
    const theirs = (await uploadImages(t, other.personal_token, [{ name: 'x.png', bytes: PNG_1X1 }])).body.data
      .images[0].id;
    const mine = (await uploadImages(t, demo.personal_token, [{ name: 'y.png', bytes: PNG_1X1 }])).body.data.images[0]
      .id;
    const foreignImage = await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.id}/images`, {
      token: demo.personal_token,
      body: { image_ids: [theirs] },
    });
    expect(foreignImage.status).toBe(422);
    const foreignProperty = await t.request('PUT', `/v1/qc/properties/${other.properties[0]?.id}/images`, {
      token: demo.personal_token,
      body: { image_ids: [mine] },
    });
    expect(foreignProperty.status).toBe(404);
  });

  it('hides usages outside the token allow-list and refuses to sever them even with ?force=1', async () => {
    const id = (await uploadImages(t, demo.personal_token, [{ name: 'z.png', bytes: PNG_1X1 }])).body.data.images[0].id;
    await t.request('PUT', `/v1/qc/properties/${demo.properties[1]?.id}/images`, {
      token: demo.personal_token,
      body: { image_ids: [id] },
    });
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[0]?.id as string],
    });
    const res = await t.request('DELETE', `/v1/qc/gallery/${id}`, { token: narrow.token, query: { force: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.usages).toEqual([
      {
        kind: 'property',
        property_id: null,
        room_type_id: null,
        content_page_id: null,
        position: 0,
        outside_grant: true,
      },
    ]);
  });

  it('needs properties.manage', async () => {
    const { token } = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      account_scoped: true,
    });
    const list = await t.request('GET', '/v1/qc/gallery', { token });
    expect(list.status).toBe(403);
    expect(list.body.message).toBe('errors.qc.insufficient_scope');
    const upload = await uploadImages(t, token, [{ name: 'a.png', bytes: PNG_1X1 }]);
    expect(upload.status).toBe(403);
  });

  it('refuses an upload without a token with 401 before reading the body', async () => {
    const res = await uploadImages(t, '', [{ name: 'a.png', bytes: PNG_1X1 }]);
    expect(res.status).toBe(401);
  });

  it('serves no media for a malformed or unknown file name', async () => {
    for (const path of ['/media/gallery/not-a-uuid.png', `/media/gallery/${crypto.randomUUID()}.png`]) {
      expect((await t.app.handle(new Request(`http://localhost${path}`))).status).toBe(404);
    }
  });
});
