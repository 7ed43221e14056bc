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

  it('accepts a key that is not a locale tag, stores it as sent and names it in warnings, the same way on every resource', async () => {
    const resources = {
      ...creations(),
      extra_service: { path: `${base}/extra_services`, body: { price: 5, price_type: 1 } },
    };
    for (const [what, c] of Object.entries(resources)) {
      const res = await create(c.path, { ...c.body, name_tr: { 'en-GB': 'ok', english: 'no' } });
      expect([what, res.status]).toEqual([what, 201]);
      expect([what, res.body.data.name_tr]).toEqual([what, { 'en-GB': 'ok', english: 'no' }]);
      expect([what, res.body.warnings]).toEqual([what, [{ field: 'name_tr.english', key: 'errors.qc.unknown_field' }]]);
    }
    const patched = await t.request('PATCH', `${base}/rate_plans/BAR`, {
      token: demo.personal_token,
      body: { name_tr: { EN: 'x' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.warnings).toEqual([{ field: 'name_tr.EN', key: 'errors.qc.unknown_field' }]);
  });
});

describe('name_tr: the same default on every configuration entity', () => {
  it('stores an omitted name_tr as the name under en-GB on policies, promotions, special offers and placeholders', async () => {
    const button = (await t.request('GET', `${base}/booking_buttons`, { token: demo.personal_token })).body.data
      .booking_buttons[0].id;
    const entities = {
      payment_policy: [`${base}/payment_policies`, { name: 'Pay on arrival', pay_type: 'on_arr' }, 'Pay on arrival'],
      extra_service: [`${base}/extra_services`, { name: 'Parking', price: 5, price_type: 1 }, 'Parking'],
      cancellation_policy: [
        `${base}/cancellation_policies`,
        { name: 'Free', name_tr: {}, data: [{ c_type: 'no_show', p_type: 'percent', p_value: 100 }] },
        'Free',
      ],
      promotion: [
        `${base}/promotions`,
        { name: 'Summer 10%', type: 'basic', discount_type: 'percent', discount_value: 10 },
        'Summer 10%',
      ],
      special_offer: [
        `/v1/qc/booking_buttons/${button}/special_offers`,
        {
          name: 'Summer stay',
          active_from_date: '2030-07-01',
          active_to_date: '2030-08-31',
          rate_plans_ids: ['BAR'],
          discount_percent: 15,
        },
        'Summer stay',
      ],
    } as const;
    for (const [what, [path, body, name]] of Object.entries(entities)) {
      const res = await create(path, body);
      expect([what, res.status, res.body.data?.name_tr]).toEqual([what, 201, { 'en-GB': name }]);
    }

    const fresh = await create('/v1/qc/properties', {
      name: 'Placeholder Inn',
      type_id: 1,
      currency: 'EUR',
      timezone: 'Europe/Rome',
      partner_code: 'NT-PLACEHOLDER',
    });
    const room = await create(`/v1/qc/properties/${fresh.body.data.id}/room_types`, { name: 'Twin' });
    await create(`/v1/qc/properties/${fresh.body.data.id}/rate_plans`, {
      title: 'A',
      room_type_ids: [room.body.data.id],
      sell_type: 'per_room',
    });
    for (const kind of ['payment_policies', 'cancellation_policies']) {
      const list = await t.request('GET', `/v1/qc/properties/${fresh.body.data.id}/${kind}`, {
        token: demo.personal_token,
      });
      const [placeholder] = list.body.data[kind] as { name: string; name_tr: Record<string, string> }[];
      expect([kind, placeholder?.name_tr]).toEqual([kind, { 'en-GB': placeholder?.name as string }]);
    }
  });
});
