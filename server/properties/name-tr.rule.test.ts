import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

let base: string;
let roomTypeId: string;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  base = `/v1/qc/properties/${demo.properties[0]?.id}`;
  const rooms = await t.request('GET', `${base}/room_types`, { token: demo.personal_token });
  roomTypeId = rooms.body.data.room_types[0].id;
});

let seq = 0;
const creations = () => {
  seq++;
  return {
    property: {
      path: '/v1/qc/properties',
      body: { name: 'Harbour Inn', type_id: 1, currency: 'EUR', timezone: 'Europe/Lisbon', partner_code: `NT${seq}` },
      name: 'Harbour Inn',
    },
    room_type: { path: `${base}/room_types`, body: { name: 'Garden Suite' }, name: 'Garden Suite' },
    rate_plan: {
      path: `${base}/rate_plans`,
      body: { title: 'Early Bird', sell_type: 'per_room', room_type_ids: [roomTypeId] },
      name: 'Early Bird',
    },
  };
};

const create = (path: string, body: unknown) => t.request('POST', path, { token: demo.personal_token, body });

describe('name_tr: one rule for properties, room types and rate plans', () => {
  it('stores an omitted or empty name_tr as the name under en-GB', async () => {
    for (const [what, c] of Object.entries(creations())) {
      const omitted = await create(c.path, c.body);
      expect([what, omitted.status]).toEqual([what, 201]);
      expect(omitted.body.data.name_tr).toEqual({ 'en-GB': c.name });
    }
    for (const [what, c] of Object.entries(creations())) {
      const empty = await create(c.path, { ...c.body, name_tr: {} });
      expect([what, empty.body.data.name_tr]).toEqual([what, { 'en-GB': c.name }]);
    }
  });

  it('applies the same rule when a rate plan PATCH empties name_tr', async () => {
    const emptied = await t.request('PATCH', `${base}/rate_plans/BAR`, {
      token: demo.personal_token,
      body: { title: 'Flexible', name_tr: {} },
    });
    expect(emptied.body.data.name_tr).toEqual({ 'en-GB': 'Flexible' });
  });

  it('keeps a given name_tr as sent', async () => {
    for (const c of Object.values(creations())) {
      const res = await create(c.path, { ...c.body, name_tr: { 'pt-PT': 'Nome' } });
      expect(res.status).toBe(201);
      expect(res.body.data.name_tr).toEqual({ 'pt-PT': 'Nome' });
    }
  });

  it('refuses a key that is not a locale tag with 422 on its path, the same way on every resource', async () => {
    const resources = {
      ...creations(),
      extra_service: { path: `${base}/extra_services`, body: { price: 5, price_type: 1 } },
    };
    for (const [what, c] of Object.entries(resources)) {
      const res = await create(c.path, { ...c.body, name_tr: { 'en-GB': 'ok', english: 'no' } });
      expect([what, res.status]).toEqual([what, 422]);
      const resource = Object.values(res.body.errors as Record<string, string[]>)[0]?.[0]?.split('.')[1];
      expect(res.body.errors).toEqual({ 'name_tr.english': [`customer.${resource}.messages.unknown_field`] });
    }
    const patched = await t.request('PATCH', `${base}/rate_plans/BAR`, {
      token: demo.personal_token,
      body: { name_tr: { EN: 'x' } },
    });
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.errors)).toEqual(['name_tr.EN']);
  });
});
