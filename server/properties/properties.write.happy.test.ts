import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const newProperty = (partnerCode: string) => ({
  name: 'Harbour Inn',
  name_tr: { 'en-GB': 'Harbour Inn', 'pt-PT': 'Estalagem do Porto' },
  type_id: 1,
  currency: 'EUR',
  timezone: 'Europe/Lisbon',
  partner_code: partnerCode,
});

describe('POST /properties', () => {
  it('creates a shadow property mirroring a GET /properties entry, with property.created', async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      body: newProperty('HARBOUR'),
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      external_property_id: data.id,
      id: data.id,
      name: 'Harbour Inn',
      name_tr: { 'en-GB': 'Harbour Inn', 'pt-PT': 'Estalagem do Porto' },
      currency: 'EUR',
      timezone: 'Europe/Lisbon',
      mode: 'shadow',
      partner_code: 'HARBOUR',
      partner_name: null,
    });
    const listed = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect(listed.body.data.properties).toContainEqual(data);
    const [event] = await t.deps.db.sql<{ data: unknown }>`
      select e.data from outbox_events e join properties p on p.id = e.property_id
      where e.type = 'property.created' and p.external_id = ${data.id}`;
    expect(event?.data).toEqual({ property_id: data.id, partner_code: 'HARBOUR', mode: 'shadow' });
  });

  it("appends the new property to a fixed-list creator's allow-list, and only to its own", async () => {
    const creator = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[0]?.id ?? ''],
    });
    const bystander = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[0]?.id ?? ''],
    });
    const res = await t.request('POST', '/v1/qc/properties', { token: creator.token, body: newProperty('FIXED-LIST') });
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    expect((await t.request('GET', `/v1/qc/properties/${id}`, { token: creator.token })).status).toBe(200);
    expect((await t.request('GET', '/v1/qc/properties/FIXED-LIST', { token: creator.token })).body.data.id).toBe(id);
    expect((await t.request('GET', `/v1/qc/properties/${id}`, { token: bystander.token })).status).toBe(404);
    const list = await t.request('GET', '/v1/qc/properties', { token: creator.token });
    expect(list.body.data.meta.total).toBe(2);
  });

  it('lets the creator build structure on the new property straight away', async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      body: newProperty('BUILD'),
    });
    const rt = await t.request('POST', '/v1/qc/properties/BUILD/room_types', {
      token: demo.personal_token,
      body: { name: 'Room' },
    });
    expect(rt.status).toBe(201);
    expect(res.body.data.mode).toBe('shadow');
  });

  it('takes IANA names as the tz database spells them, links included, and circulating ISO 4217 codes', async () => {
    const cases = [
      ['UTC', 'USD'],
      ['Etc/GMT-2', 'XOF'],
      ['Asia/Calcutta', 'INR'],
      ['America/Argentina/Buenos_Aires', 'ARS'],
      ['Europe/Kyiv', 'UAH'],
      ['America/Curacao', 'XCG'],
    ];
    for (const [i, [timezone, currency]] of cases.entries()) {
      const res = await t.request('POST', '/v1/qc/properties', {
        token: demo.personal_token,
        body: { ...newProperty(`ZONE-${i}`), timezone, currency },
      });
      expect([res.status, res.body.data?.timezone, res.body.data?.currency]).toEqual([201, timezone, currency]);
    }
  });
});

describe('properties stored before the zone and currency rules', () => {
  it('still list, show and take a PATCH with an offset zone or an unknown currency', async () => {
    const [row] = await t.deps.db.sql<{ external_id: string }>`
      insert into properties (customer_id, name, currency, timezone, partner_code)
      values (${demo.customer_id}, 'Old Inn', 'XYZ', '+02:00', 'OLD-INN') returning external_id::text`;
    const id = row?.external_id as string;
    const listed = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect(listed.body.data.properties).toContainEqual(
      expect.objectContaining({ id, timezone: '+02:00', currency: 'XYZ' }),
    );
    expect((await t.request('GET', `/v1/qc/properties/${id}`, { token: demo.personal_token })).status).toBe(200);
    const patched = await t.request('PATCH', `/v1/qc/properties/${id}`, {
      token: demo.personal_token,
      body: { partner_name: 'Old Inn (PMS)' },
    });
    expect([patched.status, patched.body.data.partner_name]).toEqual([200, 'Old Inn (PMS)']);
  });
});

describe('PATCH /properties/{ext}', () => {
  it('sets partner_code and partner_name, resolves by the new code and records property.updated', async () => {
    const property = demo.properties[1]?.id ?? '';
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      body: { partner_code: 'LODGE-9', partner_name: 'Lodge in PMS' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: property,
      partner_code: 'LODGE-9',
      partner_name: 'Lodge in PMS',
      mode: 'shadow',
    });
    const byCode = await t.request('PATCH', '/v1/qc/properties/LODGE-9', {
      token: demo.personal_token,
      body: { partner_name: null },
    });
    expect(byCode.body.data).toMatchObject({ id: property, partner_code: 'LODGE-9', partner_name: null });
    const events = await t.deps.db.sql<{ data: unknown }>`
      select e.data from outbox_events e join properties p on p.id = e.property_id
      where e.type = 'property.updated' and p.external_id = ${property} order by e.id`;
    expect(events.map((e) => e.data)).toEqual([
      { property_id: property, partner_code: 'LODGE-9', partner_name: 'Lodge in PMS' },
      { property_id: property, partner_code: 'LODGE-9', partner_name: null },
    ]);
  });
});

describe('GET /property-types', () => {
  it('answers the dictionary whose ids are valid type_id values', async () => {
    const res = await t.request('GET', '/v1/qc/property-types', { token: demo.personal_token });
    expect(res.status).toBe(200);
    const types = res.body.data.property_types;
    expect(types.length).toBeGreaterThan(1);
    for (const entry of types) expect(Number.isInteger(entry.id)).toBe(true);
    const last = types[types.length - 1];
    const created = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      body: { ...newProperty('TYPED'), type_id: last.id },
    });
    expect(created.status).toBe(201);
  });

  it('carries meta like every other list: the whole dictionary in one page', async () => {
    const res = await t.request('GET', '/v1/qc/property-types', { token: demo.personal_token });
    const total = res.body.data.property_types.length;
    expect(res.body.data.meta).toEqual({ total, page: 1, per_page: 200, last_page: 1 });
  });

  it('needs no scope', async () => {
    const narrow = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'], property_ids: [] });
    expect((await t.request('GET', '/v1/qc/property-types', { token: narrow.token })).status).toBe(200);
  });
});
