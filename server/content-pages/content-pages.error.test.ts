import { describe, expect, it } from 'bun:test';
import { pagesTestPerFile } from './test-fixtures.ts';

const p = pagesTestPerFile();

describe('content page refusals', () => {
  it('refuses a slug another page of the property uses with 409', async () => {
    await p.call('POST', '/content_pages', { slug: 'parking', title: 'Parking' });
    const res = await p.call('POST', '/content_pages', { slug: 'parking', title: 'Parking again' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.content_page_slug_taken');
  });

  it('validates the slug and the required title', async () => {
    const res = await p.call('POST', '/content_pages', { slug: 'Not A Slug' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['slug', 'title']);
  });

  it('refuses a guide item naming a page that is not on this property with 422', async () => {
    const res = await p.call('PUT', '/guest_guide', { items: [{ kind: 'page', content_page_id: 'no-such-page' }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.content_page_not_found', item: 0 });
    const linkWithoutUrl = await p.call('PUT', '/guest_guide', { items: [{ kind: 'link', title: 'x' }] });
    expect(linkWithoutUrl.body.errors).toEqual({ 'items.0.url': ['customer.guest_guide.messages.required'] });
  });

  it('answers 404 for a page of another customer and for a property outside the allow-list', async () => {
    const other = await p.t.demo();
    const theirs = await p.t.request('POST', `/v1/qc/properties/${other.properties[0]?.id}/content_pages`, {
      token: other.personal_token,
      body: { slug: 'theirs', title: 'Theirs' },
    });
    expect((await p.call('GET', `/content_pages/${theirs.body.data.id}`)).status).toBe(404);
    const foreign = await p.t.request('GET', `/v1/qc/properties/${other.properties[0]?.id}/content_pages`, {
      token: p.demo.personal_token,
    });
    expect(foreign.status).toBe(404);
    const narrow = await p.t.client({
      customer_id: p.demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [p.demo.properties[1]?.id as string],
    });
    const outside = await p.t.request('GET', `${p.base}/guest_guide`, { token: narrow.token });
    expect(outside.status).toBe(404);
  });
});
