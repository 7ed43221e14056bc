import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('catalogue refusals', () => {
  it('refuses a code repeated within one array, writing nothing', async () => {
    const res = await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.id}/catalogue`, {
      token: demo.personal_token,
      body: {
        rooms: [
          { code: 'A', name: 'a' },
          { code: 'A', name: 'b' },
        ],
        rates: [{ code: 'A', name: 'rate A' }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      message: 'errors.validation_error',
      errors: { 'rooms.1.code': ['customer.catalogue.messages.duplicate'] },
    });
    const rows = await t.deps.db
      .sql`select 1 from catalogues c join properties p on p.id = c.property_id where p.external_id = ${demo.properties[0]?.id}`;
    expect(rows).toHaveLength(0);
  });

  it('refuses malformed entries', async () => {
    const res = await t.request('PUT', `/v1/qc/properties/${demo.properties[0]?.id}/catalogue`, {
      token: demo.personal_token,
      body: { rooms: [{ code: '', name: 'empty' }] },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['rooms.0.code']);
  });

  it('answers 404 for a property outside the allow-list, on write and on read', async () => {
    const other = await t.demo();
    const res = await t.request('PUT', `/v1/qc/properties/${other.properties[0]?.id}/catalogue`, {
      token: demo.personal_token,
      body: {},
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('errors.not_found');
    const read = await t.request('GET', `/v1/qc/properties/${other.properties[0]?.id}/catalogue`, {
      token: demo.personal_token,
    });
    expect(read.status).toBe(404);
    expect(read.body.message).toBe('errors.not_found');
  });

  it('reads the catalogue only with properties.manage, the scope that writes it', async () => {
    const reader = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [demo.properties[0]?.id ?? ''],
    });
    const res = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.id}/catalogue`, {
      token: reader.token,
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('errors.qc.insufficient_scope');
  });

  it('refuses a sync listing a property twice or repeating a code, before any job exists', async () => {
    const id = demo.properties[0]?.id;
    const twice = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: { properties: [{ property_id: id }, { property_id: id }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ 'properties.1.property_id': ['customer.catalogue_sync.messages.duplicate'] });
    const repeated = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: {
        properties: [
          {
            property_id: id,
            meals: [
              { code: 'B', name: 'b' },
              { code: 'B', name: 'c' },
            ],
          },
        ],
      },
    });
    expect(repeated.body.errors).toEqual({ 'properties.0.meals.1.code': ['customer.catalogue.messages.duplicate'] });
    const [jobs] = await t.deps.db.sql<{
      n: number;
    }>`select count(*)::int as n from catalogue_sync_jobs where customer_id = ${demo.customer_id}`;
    expect(jobs?.n).toBe(0);
  });

  it('refuses a sync naming one property by its external id and by its partner code, writing nothing', async () => {
    const property = demo.properties[0];
    const res = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: {
        properties: [
          { property_id: property?.partner_code, rooms: [{ code: 'A', name: 'a' }] },
          { property_id: property?.id.toUpperCase(), rooms: [{ code: 'B', name: 'b' }] },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'properties.1.property_id': ['customer.catalogue_sync.messages.duplicate'] });
    const shown = await t.request('GET', `/v1/qc/properties/${property?.id}/catalogue`, { token: demo.personal_token });
    expect(shown.body.data).toMatchObject({ rooms: [], updated_at: null });
  });

  it("answers 404 for an unknown job, a malformed id and another customer's job", async () => {
    const other = await t.demo();
    const job = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: other.personal_token,
      body: { properties: [] },
    });
    expect(job.status).toBe(202);
    for (const id of [job.body.data.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await t.request('GET', `/v1/qc/catalogue-sync/${id}`, { token: demo.personal_token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    }
    expect(
      (await t.request('GET', `/v1/qc/catalogue-sync/${job.body.data.id}`, { token: other.personal_token })).status,
    ).toBe(200);
  });
});
