import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { GIF_1X1, MemoryStorage, uploadImages } from './test-fixtures.ts';

const t = testAppPerFile({ storage: new MemoryStorage(), env: { QC_PUBLIC_URL: 'https://connect.example.com' } });
const demo = perFile(() => t.demo());

describe('legacy getRoomsDetails images', () => {
  it("lists a room's gallery images as absolute public URLs, in order, that fetch without authentication", async () => {
    const room = (demo.properties[0]?.room_types as { id: string; legacy_room_id: number }[] | undefined)?.[0];
    const extra = (await uploadImages(t, demo.personal_token, [{ name: 'b.gif', bytes: GIF_1X1 }])).body.data.images[0];
    const gallery = demo.gallery as { image_id: string; url: string };
    await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.id}/room_types/${room?.id}/images`, {
      token: demo.personal_token,
      body: { image_ids: [extra.id, gallery.image_id] },
    });
    const res = await t.request('GET', '/api/pms/v1/property/getRoomsDetails', {
      query: { api_key: demo.legacy_api_key, room_id: room?.legacy_room_id },
    });
    expect(res.status).toBe(200);
    const images = res.body.data[0].images as string[];
    expect(images.slice(-2)).toEqual([extra.url, gallery.url]);
    expect(images).toHaveLength(2);
    expect(images.every((url) => url.startsWith('https://'))).toBe(true);
    const served = await t.app.handle(new Request(`http://localhost${new URL(extra.url).pathname}`));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(GIF_1X1);
  });
});
