import { beforeAll, describe, expect, it } from 'bun:test';
import type { DemoProperty } from '../demo/demo.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

let token: string;
let base: string;

interface DemoRoom {
  id: string;
  partner_code: string;
  legacy_room_id: number;
}
const live = () => demo.properties[0] as DemoProperty;
const room = (code: string) => live().room_types.find((r) => r.partner_code === code) as DemoRoom;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  token = demo.personal_token;
  base = `/v1/qc/properties/${live().id}`;
});

describe('GET room_types', () => {
  it('lists the property room types with the spec 2.3 fields and meta', async () => {
    const res = await t.request('GET', `${base}/room_types`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.meta).toEqual({ total: 2, page: 1, per_page: 200, last_page: 1 });
    const [double, apartment] = res.body.data.room_types;
    expect(double).toEqual({
      external_room_type_id: room('DBL').id,
      id: room('DBL').id,
      name: 'Double Room',
      name_tr: { 'en-GB': 'Double Room' },
      kind: 'room',
      qty: 1,
      occupancy: { adults: 3, children: 1, infants: 0 },
      partner_code: 'DBL',
      partner_name: null,
      type: 7,
      description: '<p>Sea-view double room.</p>',
      sqm_area: 22,
      regular_beds: 2,
      extra_beds: 1,
      extra_beds_children_only: 0,
      no_beds: 0,
      images: [],
    });
    expect(apartment).toMatchObject({ kind: 'apartment', type: 4, regular_beds: 4, extra_beds: 2, qty: 3 });
  });

  it('shows one room type alike by external id and by partner code, under either property segment', async () => {
    const byId = await t.request('GET', `${base}/room_types/${room('APT').id}`, { token });
    const byCode = await t.request('GET', `/v1/qc/properties/${live().partner_code}/room_types/APT`, { token });
    expect(byId.status).toBe(200);
    expect(byCode.body).toEqual(byId.body);
    expect(byId.body.data.id).toBe(room('APT').id);
  });

  it('keeps an empty page legal with last_page 1', async () => {
    const res = await t.request('GET', `${base}/room_types`, { token, query: { page: 5, per_page: 10 } });
    expect(res.body.data).toEqual({ room_types: [], meta: { total: 2, page: 5, per_page: 10, last_page: 1 } });
  });
});

describe('POST room_types', () => {
  it('creates a real record and answers 201 with its fresh id, readable at once', async () => {
    const res = await t.request('POST', `${base}/room_types`, {
      token,
      body: {
        name: 'Garden Villa',
        name_tr: { 'en-GB': 'Garden Villa', 'pt-PT': 'Moradia do Jardim' },
        kind: 'villa',
        qty: 2,
        regular_beds: 4,
        extra_beds: 2,
        extra_beds_children_only: 1,
        no_beds: 1,
        occupancy: { adults: 5, children: 3, infants: 1 },
        description: '<p>Private pool.</p>',
        sqm_area: 120.5,
        images: ['https://cdn.example.com/villa/1.jpg', 'https://cdn.example.com/villa/2.jpg'],
        partner_code: 'VILLA',
        partner_name: 'Villa (PMS)',
      },
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(data).toMatchObject({
      kind: 'villa',
      type: 5,
      qty: 2,
      occupancy: { adults: 5, children: 3, infants: 1 },
      regular_beds: 4,
      extra_beds: 2,
      extra_beds_children_only: 1,
      no_beds: 1,
      sqm_area: 120.5,
      images: ['https://cdn.example.com/villa/1.jpg', 'https://cdn.example.com/villa/2.jpg'],
      partner_code: 'VILLA',
      partner_name: 'Villa (PMS)',
    });
    const shown = await t.request('GET', `${base}/room_types/VILLA`, { token });
    expect(shown.body.data).toEqual(data);
    // The legacy facade reads the same record by its internal integer id.
    const [row] = await t.deps.db.sql<{
      id: number;
      legacy_type: number;
    }>`select id, legacy_type from room_types where external_id = ${data.id}`;
    expect(Number.isInteger(row?.id)).toBe(true);
    expect(row?.legacy_type).toBe(5);
  });

  it('defaults kind and legacy type from each other and occupancy from the beds', async () => {
    const studio = await t.request('POST', `${base}/room_types`, {
      token,
      body: { name: 'Studio', type: 6, regular_beds: 1, extra_beds: 2, extra_beds_children_only: 1 },
    });
    expect(studio.body.data).toMatchObject({
      kind: 'studio',
      type: 6,
      qty: 1,
      occupancy: { adults: 2, children: 2, infants: 0 },
      partner_code: null,
      sqm_area: null,
    });
    const plain = await t.request('POST', `${base}/room_types`, { token, body: { name: 'Plain' } });
    expect(plain.body.data).toMatchObject({
      kind: 'room',
      type: 7,
      regular_beds: 2,
      extra_beds: 0,
      occupancy: { adults: 2, children: 0, infants: 0 },
    });
    const apartment = await t.request('POST', `${base}/room_types`, {
      token,
      body: { name: 'Flat', kind: 'apartment' },
    });
    expect(apartment.body.data).toMatchObject({ kind: 'apartment', type: 4 });
  });

  it('records room_type.created with the external ids', async () => {
    const res = await t.request('POST', `${base}/room_types`, {
      token,
      body: { name: 'Evented', partner_code: 'EVT' },
    });
    const [event] = await t.deps.db.sql<{ data: unknown }>`
      select data from outbox_events where type = 'room_type.created' and data->>'room_type_id' = ${res.body.data.id}`;
    expect(event?.data).toEqual({ property_id: live().id, room_type_id: res.body.data.id, partner_code: 'EVT' });
  });
});

describe('PATCH room_types', () => {
  it('sets and clears the partner mapping, resolving the room by its new code, and records room_type.updated', async () => {
    const created = await t.request('POST', `${base}/room_types`, { token, body: { name: 'Mapped' } });
    const id = created.body.data.id;
    const set = await t.request('PATCH', `${base}/room_types/${id}`, {
      token,
      body: { partner_code: 'MAP-1', partner_name: 'Mapped room' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id, partner_code: 'MAP-1', partner_name: 'Mapped room', name: 'Mapped' });
    const renamed = await t.request('PATCH', `${base}/room_types/MAP-1`, { token, body: { partner_name: null } });
    expect(renamed.body.data).toMatchObject({ partner_code: 'MAP-1', partner_name: null });
    const [event] = await t.deps.db.sql<{ data: unknown }>`
      select data from outbox_events where type = 'room_type.updated' and data->>'room_type_id' = ${id} order by id desc limit 1`;
    expect(event?.data).toEqual({
      property_id: live().id,
      room_type_id: id,
      partner_code: 'MAP-1',
      partner_name: null,
    });
  });
});
