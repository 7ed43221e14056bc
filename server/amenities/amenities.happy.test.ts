import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());
let property: string;
let room: string;

beforeAll(() => {
  property = `/v1/qc/properties/${demo.properties[0]?.id}`;
  room = `${property}/room_types/${(demo.properties[0]?.room_types as { partner_code: string }[] | undefined)?.[0]?.partner_code}`;
});

type Group = { code: string; level: string; amenities: { id: string; name: string; options: { key: string }[] }[] };
const amenity = (groups: Group[], id: string) => groups.flatMap((g) => g.amenities).find((a) => a.id === id);

describe('GET /amenities', () => {
  it('groups the OTA catalogue by level with official English names and parametric options', async () => {
    const res = await t.request('GET', '/v1/qc/amenities', { token: demo.personal_token, query: { level: 'unit' } });
    expect(res.status).toBe(200);
    expect(res.body.data.locale).toBe('en-GB');
    const groups = res.body.data.groups as Group[];
    expect(new Set(groups.map((g) => g.level))).toEqual(new Set(['unit']));
    expect(amenity(groups, 'RMA.50')?.name).toBe('Hairdryer');
    expect(amenity(groups, 'RMA.123')?.options.map((o) => o.key)).toEqual(['charge']);
    expect(amenity(groups, 'HAC.68')).toBeUndefined();
  });

  it('answers in the request locale, matching by language, and falls back to English', async () => {
    const get = (lang: string) =>
      t.request('GET', '/v1/qc/amenities', {
        token: demo.personal_token,
        query: { level: 'property' },
        headers: { 'accept-language': lang },
      });
    const german = await get('de-AT,en;q=0.5');
    expect(german.body.data.locale).toBe('de-DE');
    expect(amenity(german.body.data.groups, 'HAC.68')?.name).toBe('Parkplatz');
    const portuguese = await get('pt-BR');
    expect(portuguese.body.data.locale).toBe('en-GB');
    expect(amenity(portuguese.body.data.groups, 'HAC.68')?.name).toBe('Parking');
  });

  it('leaves out amenities that do not apply to a property type', async () => {
    const hotel = await t.request('GET', '/v1/qc/amenities', {
      token: demo.personal_token,
      query: { property_type_id: 1 },
    });
    const hostel = await t.request('GET', '/v1/qc/amenities', {
      token: demo.personal_token,
      query: { property_type_id: 4 },
    });
    expect(amenity(hotel.body.data.groups, 'HAC.16')).toBeDefined();
    expect(amenity(hostel.body.data.groups, 'HAC.16')).toBeUndefined();
    expect(amenity(hostel.body.data.groups, 'HAC.1')).toBeDefined();
  });

  it('refuses a property_type_id the dictionary lacks with 422 `in`, as POST /properties refuses its type_id', async () => {
    const res = await t.request('GET', '/v1/qc/amenities', {
      token: demo.personal_token,
      query: { property_type_id: 99 },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ property_type_id: ['customer.amenity.messages.in'] });
  });

  it('names property_type_id in a 422 for a value below 1 or no whole number (it said `property`)', async () => {
    for (const [value, rule] of [
      [0, 'min'],
      ['1.5', 'integer'],
      ['', 'integer'],
    ] as const) {
      const res = await t.request('GET', '/v1/qc/amenities', {
        token: demo.personal_token,
        query: { property_type_id: value },
      });
      expect([value, res.status, res.body.errors]).toEqual([
        value,
        422,
        { property_type_id: [`customer.amenity.messages.${rule}`] },
      ]);
    }
  });
});

describe('assigned amenities', () => {
  it('assigns property and room type amenities with option values and reads them back localized', async () => {
    const put = await t.request('PUT', `${property}/amenities`, {
      token: demo.personal_token,
      body: { amenities: [{ id: 'HAC.68', options: { charge: 'paid', location: 'on_site' } }, { id: 'HAC.79' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.amenities).toEqual([
      { id: 'HAC.68', name: 'Parking', group: 'parking_transport', options: { charge: 'paid', location: 'on_site' } },
      { id: 'HAC.79', name: 'Sauna', group: 'wellness', options: {} },
    ]);
    await t.request('PUT', `${room}/amenities`, {
      token: demo.personal_token,
      body: { amenities: [{ id: 'RMA.123', options: { charge: 'free' } }] },
    });
    const read = await t.request('GET', `${room}/amenities`, {
      token: demo.personal_token,
      headers: { 'accept-language': 'fr' },
    });
    expect(read.body.data.amenities).toEqual([
      { id: 'RMA.123', name: 'Connexion Internet sans fil', group: 'media', options: { charge: 'free' } },
    ]);
  });
});

describe('assignment refusals', () => {
  it('refuses unknown ids, ids of the other level, option values outside the list and duplicates with 422', async () => {
    const res = await t.request('PUT', `${property}/amenities`, {
      token: demo.personal_token,
      body: {
        amenities: [
          { id: 'HAC.9999' },
          { id: 'RMA.50' },
          { id: 'HAC.68', options: { charge: 'sometimes' } },
          { id: 'HAC.79' },
          { id: 'HAC.79' },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'amenities.0.id': ['customer.amenity.messages.in'],
      'amenities.1.id': ['customer.amenity.messages.in'],
      'amenities.2.options.charge': ['customer.amenity.messages.in'],
      'amenities.4.id': ['customer.amenity.messages.unique'],
    });
  });

  it('answers 404 for a property outside the allow-list and 403 without properties.manage', async () => {
    const other = await t.demo();
    const res = await t.request('PUT', `/v1/qc/properties/${other.properties[0]?.id}/amenities`, {
      token: demo.personal_token,
      body: { amenities: [] },
    });
    expect(res.status).toBe(404);
    const reader = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'], account_scoped: true });
    expect((await t.request('GET', '/v1/qc/amenities', { token: reader.token })).status).toBe(403);
  });
});
