import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('GET /properties', () => {
  it('lists the allowed properties with integer meta, paged', async () => {
    const all = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect(all.status).toBe(200);
    expect(all.body.data.meta).toEqual({ total: 2, page: 1, per_page: 200, last_page: 1 });
    const second = await t.request('GET', '/v1/qc/properties', {
      token: demo.personal_token,
      query: { per_page: 1, page: 2 },
    });
    expect(second.body.data.meta).toEqual({ total: 2, page: 2, per_page: 1, last_page: 2 });
    expect(second.body.data.properties.map((p: { id: string }) => p.id)).toEqual([demo.properties[1]?.id]);
  });

  it('keeps last_page at 1 for an empty allow-list', async () => {
    const { token } = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [] });
    const res = await t.request('GET', '/v1/qc/properties', { token });
    expect(res.body.data).toEqual({ properties: [], meta: { total: 0, page: 1, per_page: 200, last_page: 1 } });
  });

  it('shows one property alike by external id and by partner code', async () => {
    const [first] = demo.properties;
    const byId = await t.request('GET', `/v1/qc/properties/${first?.id}`, { token: demo.personal_token });
    const byCode = await t.request('GET', `/v1/qc/properties/${first?.partner_code}`, { token: demo.personal_token });
    expect(byId.status).toBe(200);
    expect(byCode.body).toEqual(byId.body);
    expect(byId.body.data.id).toBe(byId.body.data.external_property_id);
  });
});
