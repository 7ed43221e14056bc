import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();

const catalogue = {
  rooms: [
    { code: 'DBL', name: 'Double' },
    { code: 'APT', name: 'Apartment' },
  ],
  rates: [{ code: 'BAR', name: 'Best available' }],
  meals: [{ code: 'BB', name: 'Bed and breakfast' }],
};

async function storedCatalogue(propertyExternalId: string | undefined) {
  const [row] = await t.deps.db.sql<{ rooms: unknown; rates: unknown; meals: unknown }>`
    select c.rooms, c.rates, c.meals from catalogues c join properties p on p.id = c.property_id where p.external_id = ${propertyExternalId}`;
  return row;
}

describe('PUT /properties/{ext}/catalogue', () => {
  it('replaces the whole catalogue, by external id or partner code, and records catalogue.replaced', async () => {
    const demo = await t.demo();
    const [live] = demo.properties;
    const first = await t.request('PUT', `/v1/qc/properties/${live?.id}/catalogue`, {
      token: demo.personal_token,
      body: catalogue,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ property_id: live?.id, ...catalogue });
    const second = await t.request('PUT', `/v1/qc/properties/${live?.partner_code}/catalogue`, {
      token: demo.personal_token,
      body: { rates: [{ code: 'NRF', name: 'Non-refundable' }] },
    });
    expect(second.body.data).toMatchObject({ rooms: [], rates: [{ code: 'NRF', name: 'Non-refundable' }], meals: [] });
    expect(await storedCatalogue(live?.id)).toEqual({
      rooms: [],
      rates: [{ code: 'NRF', name: 'Non-refundable' }],
      meals: [],
    });
    const events = await t.deps.db.sql<{ data: unknown }>`
      select e.data from outbox_events e join properties p on p.id = e.property_id
      where e.type = 'catalogue.replaced' and p.external_id = ${live?.id} order by e.id`;
    expect(events.map((e) => e.data)).toEqual([
      { property_id: live?.id, rooms: 2, rates: 1, meals: 1, source: 'put' },
      { property_id: live?.id, rooms: 0, rates: 1, meals: 0, source: 'put' },
    ]);
  });
});

describe('GET /properties/{ext}/catalogue', () => {
  it('reads back what the partner pushed, by external id or partner code, and empty before any push', async () => {
    const demo = await t.demo();
    const [live, shadow] = demo.properties;
    const before = await t.request('GET', `/v1/qc/properties/${live?.id}/catalogue`, { token: demo.personal_token });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ property_id: live?.id, rooms: [], rates: [], meals: [], updated_at: null });

    const pushed = await t.request('PUT', `/v1/qc/properties/${live?.id}/catalogue`, {
      token: demo.personal_token,
      body: catalogue,
    });
    const byId = await t.request('GET', `/v1/qc/properties/${live?.id}/catalogue`, { token: demo.personal_token });
    expect(byId.body.data).toEqual(pushed.body.data);
    const byCode = await t.request('GET', `/v1/qc/properties/${live?.partner_code}/catalogue`, {
      token: demo.personal_token,
    });
    expect(byCode.body).toEqual(byId.body);
    const untouched = await t.request('GET', `/v1/qc/properties/${shadow?.id}/catalogue`, {
      token: demo.personal_token,
    });
    expect(untouched.body.data.rooms).toEqual([]);
  });

  it('reads what a catalogue-sync stored', async () => {
    const demo = await t.demo();
    const [live] = demo.properties;
    await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: { properties: [{ property_id: live?.partner_code, meals: [{ code: 'HB', name: 'Half board' }] }] },
    });
    const res = await t.request('GET', `/v1/qc/properties/${live?.id}/catalogue`, { token: demo.personal_token });
    expect(res.body.data).toMatchObject({ rooms: [], rates: [], meals: [{ code: 'HB', name: 'Half board' }] });
    expect(res.body.data.updated_at).toBe(t.clock.now().toISOString());
  });
});

describe('POST /catalogue-sync', () => {
  const demo = perFile(() => t.demo());
  // Each test starts from a catalogue on the shadow property, to see whether the sync clears or keeps it.
  const catalogueOnShadow = async () => {
    const res = await t.request('PUT', `/v1/qc/properties/${demo.properties[1]?.id}/catalogue`, {
      token: demo.personal_token,
      body: catalogue,
    });
    if (res.status !== 200) throw new Error(`catalogue PUT failed: ${res.status} ${res.text}`);
  };

  it('replaces the listed catalogues, clears the unlisted ones, and the job outcome is readable', async () => {
    const [live, shadow] = demo.properties;
    await catalogueOnShadow();
    const res = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: {
        properties: [{ property_id: live?.partner_code, ...catalogue }, { property_id: 'UNKNOWN-CODE' }],
        clear_unlisted: true,
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('accepted');
    const job = res.body.data;
    expect(job).toMatchObject({
      status: 'completed',
      clear_unlisted: true,
      counts: { replaced: 1, cleared: 1, failed: 1 },
    });
    expect(job.properties).toEqual([
      { property_id: live?.id, requested_as: live?.partner_code, outcome: 'replaced' },
      { property_id: 'UNKNOWN-CODE', outcome: 'failed', error: 'errors.not_found' },
      { property_id: shadow?.id, outcome: 'cleared' },
    ]);
    expect(await storedCatalogue(live?.id)).toEqual(catalogue);
    expect(await storedCatalogue(shadow?.id)).toEqual({ rooms: [], rates: [], meals: [] });

    const shown = await t.request('GET', `/v1/qc/catalogue-sync/${job.id}`, { token: demo.personal_token });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(job);

    const [event] = await t.deps.db.sql<{ data: unknown; property_id: number | null }>`
      select data, property_id from outbox_events where type = 'catalogue_sync.completed' and data->>'job_id' = ${job.id}`;
    expect(event).toEqual({
      data: { job_id: job.id, replaced: [live?.id], cleared: [shadow?.id], failed: 1 },
      property_id: null,
    });
  });

  it('keeps unlisted catalogues by default (a sync naming one property empties no other), and with false', async () => {
    const [live, shadow] = demo.properties;
    await catalogueOnShadow();
    const res = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: { properties: [{ property_id: live?.id, meals: [{ code: 'HB', name: 'Half board' }] }] },
    });
    expect(res.body.data).toMatchObject({ clear_unlisted: false, counts: { replaced: 1, cleared: 0, failed: 0 } });
    expect(await storedCatalogue(shadow?.id)).toEqual(catalogue);
    const explicit = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: demo.personal_token,
      body: {
        properties: [{ property_id: live?.id, meals: [{ code: 'HB', name: 'Half board' }] }],
        clear_unlisted: false,
      },
    });
    expect(explicit.body.data.counts).toEqual({ replaced: 1, cleared: 0, failed: 0 });
    expect(await storedCatalogue(shadow?.id)).toEqual(catalogue);
    expect(await storedCatalogue(live?.id)).toEqual({
      rooms: [],
      rates: [],
      meals: [{ code: 'HB', name: 'Half board' }],
    });
  });

  it('never touches a property outside the token allow-list', async () => {
    const [live, shadow] = demo.properties;
    await catalogueOnShadow();
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [live?.id ?? ''],
    });
    const res = await t.request('POST', '/v1/qc/catalogue-sync', {
      token: narrow.token,
      body: { properties: [{ property_id: shadow?.id, rooms: [] }], clear_unlisted: true },
    });
    expect(res.body.data.properties).toEqual([
      { property_id: shadow?.id, outcome: 'failed', error: 'errors.not_found' },
      { property_id: live?.id, outcome: 'cleared' },
    ]);
    expect(await storedCatalogue(shadow?.id)).toEqual(catalogue);
  });
});
