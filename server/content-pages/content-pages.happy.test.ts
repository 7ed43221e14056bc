import { describe, expect, it } from 'bun:test';
import { pagesTestPerFile } from './test-fixtures.ts';

const p = pagesTestPerFile();

describe('content pages', () => {
  it('creates, shows by id and by slug, lists, updates partially and deletes a page', async () => {
    const created = await p.call('POST', '/content_pages', {
      slug: 'breakfast',
      title: 'Breakfast',
      title_tr: { 'de-DE': 'Frühstück' },
      body_html: { 'en-GB': '<p>Quiet after 22:00.</p>' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ slug: 'breakfast', is_published: true, position: 0, image_ids: [] });
    const id = created.body.data.id;
    expect((await p.call('GET', `/content_pages/breakfast`)).body.data.id).toBe(id);
    const patched = await p.call('PATCH', `/content_pages/${id}`, { is_published: false });
    expect(patched.body.data).toMatchObject({ title: 'Breakfast', is_published: false });
    const list = await p.call('GET', '/content_pages');
    // The demo's house-rules page is there too.
    expect(list.body.data.content_pages.map((p: { slug: string }) => p.slug).sort()).toEqual([
      'breakfast',
      'house-rules',
    ]);
    expect(list.body.data.meta).toEqual({ total: 2, page: 1, per_page: 200, last_page: 1 });
    const deleted = await p.call('DELETE', `/content_pages/${id}`);
    expect(deleted.body.data).toEqual({ id, deleted: true, stripped_guide_items: 0 });
    expect((await p.call('GET', `/content_pages/${id}`)).status).toBe(404);
  });

  it('strips a deleted page from the guest-guide items that referenced it, keeping their words', async () => {
    const page = (await p.call('POST', '/content_pages', { slug: 'spa-menu', title: 'Spa menu' })).body.data;
    const guide = await p.call('PUT', '/guest_guide', {
      items: [
        { kind: 'text', title: 'Welcome', text: { 'en-GB': 'Glad you are here.' } },
        { kind: 'page', title: 'Spa', content_page_id: 'spa-menu' },
        { kind: 'link', title: 'Old town', url: 'https://example.com/old-town' },
      ],
    });
    expect(guide.status).toBe(200);
    expect(guide.body.data.items.map((i: { content_page_id: string | null }) => i.content_page_id)).toEqual([
      null,
      page.id,
      null,
    ]);
    const deleted = await p.call('DELETE', `/content_pages/${page.id}`);
    expect(deleted.body.data.stripped_guide_items).toBe(1);
    const after = await p.call('GET', '/guest_guide');
    expect(after.body.data.items[1]).toMatchObject({ kind: 'page', title: 'Spa', content_page_id: null, position: 1 });
    expect(after.body.data.items).toHaveLength(3);
    const [event] = await p.t.deps.db.sql<{ data: Record<string, unknown> }>`
      select data from outbox_events where customer_id = ${p.demo.customer_id} and type = 'content_page.deleted'
      order by id desc limit 1`;
    expect(event?.data).toMatchObject({ content_page_id: page.id, stripped_guide_items: 1 });
  });
});
