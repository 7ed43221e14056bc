import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { MemoryStorage } from './test-fixtures.ts';

const t = testAppPerFile({ storage: new MemoryStorage() });
const demo = perFile(() => t.demo());

const get = (path: string) => t.request('GET', `/v1/qc${path}`, { token: demo.personal_token });

describe('the demo fixture', () => {
  it('carries one of each configuration II entity on its live property, readable through the API', async () => {
    const live = `/properties/${demo.properties[0]?.id}`;
    const gallery = demo.gallery as { image_id: string; url: string };
    const image = await get(`/gallery/${gallery.image_id}`);
    expect(image.body.data.usages.map((u: { kind: string }) => u.kind).sort()).toEqual(['content_page', 'property']);
    const served = await t.app.handle(new Request(`http://localhost${new URL(gallery.url).pathname}`));
    expect(served.headers.get('content-type')).toBe('image/png');

    const page = demo.content_page as { id: string; slug: string };
    expect((await get(`${live}/content_pages/${page.slug}`)).body.data.image_ids).toEqual([gallery.image_id]);
    const guide = await get(`${live}/guest_guide`);
    expect(guide.body.data.items.map((i: { content_page_id: string | null }) => i.content_page_id)).toContain(page.id);

    expect((await get(`${live}/guest_feedback/${demo.guest_feedback_id}`)).body.data.overall_score).toBe(9);
    expect((await get(`${live}/reviews/${demo.review_id}`)).body.data).toMatchObject({ channel: 'BDC', reply: null });
    const preview = await get(`/auto_email_templates/${demo.auto_email_template_id}/preview`);
    expect(preview.body.data.subject).toBe(`Your stay at ${demo.properties[0]?.name}`);
    const amenities = await get(`${live}/amenities`);
    expect(amenities.body.data.amenities.map((a: { id: string }) => a.id)).toEqual(['HAC.1', 'HAC.68', 'HAC.79']);
  });
});
