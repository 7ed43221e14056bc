import { beforeAll, describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
let button: string;
const plans = () => (c.demo.properties[0] as any).rate_plans as { id: string; partner_code: string }[];
const offer = (over: Record<string, unknown> = {}) => ({
  name: 'Summer stay',
  active_from_date: '2026-07-01',
  active_to_date: '2026-08-31',
  rate_plans_ids: ['BAR'],
  sfp: { min_nights: 2, max_nights: 7 },
  discount_percent: 15,
  ...over,
});

beforeAll(async () => {
  button = (await call(c, 'GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
});

describe('special offers', () => {
  it('creates an offer on a button, its plans answered by external id', async () => {
    const res = await call(c, 'POST', `/booking_buttons/${button}/special_offers`, offer());
    expect(res.status).toBe(201);
    const bar = plans().find((p) => p.partner_code === 'BAR');
    expect(res.body.data).toMatchObject({
      booking_button_id: button,
      name: 'Summer stay',
      is_active: true,
      active_from_date: '2026-07-01',
      active_to_date: '2026-08-31',
      rate_plans_ids: [bar?.id],
      sfp: { min_nights: 2, max_nights: 7 },
      discount_percent: 15,
    });
    expect(await eventsOf(c, 'special_offer.created')).toContainEqual({
      property_id: c.property,
      special_offer_id: res.body.data.id,
    });
    const list = await call(c, 'GET', `/booking_buttons/${button}/special_offers`);
    expect(list.body.data.special_offers).toContainEqual(res.body.data);
  });

  it('takes an offer without stay-length bounds', async () => {
    const res = await call(c, 'POST', `/booking_buttons/${button}/special_offers`, offer({ sfp: undefined }));
    expect(res.body.data.sfp).toEqual({ min_nights: null, max_nights: null });
  });

  it('PATCH changes only the fields present; DELETE removes it from the list', async () => {
    const created = (await call(c, 'POST', `/booking_buttons/${button}/special_offers`, offer())).body.data;
    const res = await call(c, 'PATCH', `/special_offers/${created.id}`, { discount_percent: 20, is_active: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Summer stay',
      discount_percent: 20,
      is_active: false,
      sfp: created.sfp,
    });
    expect((await call(c, 'DELETE', `/special_offers/${created.id}`)).body.data).toEqual({
      id: created.id,
      deleted: true,
    });
    const ids = (await call(c, 'GET', `/booking_buttons/${button}/special_offers`)).body.data.special_offers.map(
      (o: { id: string }) => o.id,
    );
    expect(ids).not.toContain(created.id);
    expect((await call(c, 'PATCH', `/special_offers/${created.id}`, { name: 'x' })).status).toBe(404);
    expect(await eventsOf(c, 'special_offer.updated')).toContainEqual({
      property_id: c.property,
      special_offer_id: created.id,
    });
  });
});
