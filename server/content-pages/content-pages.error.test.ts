import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../ops/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';

let t: TestApp;
let demo: Demo;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  demo = await t.demo();
  base = `/v1/qc/properties/${demo.properties[0]?.partner_code}`;
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown) =>
  t.request(method, `${base}${path}`, { token: demo.personal_token, body });

describe('content page refusals', () => {
  it('refuses a slug another page of the property uses with 409', async () => {
    await call('POST', '/content_pages', { slug: 'parking', title: 'Parking' });
    const res = await call('POST', '/content_pages', { slug: 'parking', title: 'Parking again' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.content_page_slug_taken');
  });

  it('validates the slug and the required title', async () => {
    const res = await call('POST', '/content_pages', { slug: 'Not A Slug' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['slug', 'title']);
  });

  it('refuses a guide item naming a page that is not on this property with 422', async () => {
    const res = await call('PUT', '/guest_guide', { items: [{ kind: 'page', content_page_id: 'no-such-page' }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.content_page_not_found', item: 0 });
    const linkWithoutUrl = await call('PUT', '/guest_guide', { items: [{ kind: 'link', title: 'x' }] });
    expect(linkWithoutUrl.body.errors).toEqual({ 'items.0.url': ['customer.guest_guide.messages.required'] });
  });

  it('answers 404 for a page of another customer and for a property outside the allow-list', async () => {
    const other = await t.demo();
    const theirs = await t.request('POST', `/v1/qc/properties/${other.properties[0]?.id}/content_pages`, {
      token: other.personal_token,
      body: { slug: 'theirs', title: 'Theirs' },
    });
    expect((await call('GET', `/content_pages/${theirs.body.data.id}`)).status).toBe(404);
    const foreign = await t.request('GET', `/v1/qc/properties/${other.properties[0]?.id}/content_pages`, {
      token: demo.personal_token,
    });
    expect(foreign.status).toBe(404);
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[1]?.id as string],
    });
    const outside = await t.request('GET', `${base}/guest_guide`, { token: narrow.token });
    expect(outside.status).toBe(404);
  });
});
