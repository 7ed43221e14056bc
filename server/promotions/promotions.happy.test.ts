import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/promotions`;
const plans = () => (c.demo.properties[0] as any).rate_plans as { id: string; partner_code: string }[];

describe('promotions', () => {
  it('creates a promotion with defaults: active, all day, every plan', async () => {
    const res = await call(c, 'POST', base(), {
      name: 'Summer 10%',
      type: 'basic',
      discount_type: 'percent',
      discount_value: 10,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Summer 10%',
      type: 'basic',
      is_active: true,
      discount_type: 'percent',
      discount_value: 10,
      stay_from: null,
      resv_from_time: '00:00',
      resv_to_time: '24:00',
      rate_plan_ids: [],
    });
    expect(await eventsOf(c, 'promotion.created')).toContainEqual({
      property_id: c.property,
      promotion_id: res.body.data.id,
    });
  });

  it('names rate plans by external id or partner code and answers external ids', async () => {
    const [first, second] = [plans()[0], plans().find((p) => p.partner_code === 'PP')];
    const res = await call(c, 'POST', base(), {
      name: 'Early bird',
      type: 'early_booker',
      discount_type: 'amount_per_night',
      discount_value: 15,
      days_before_arrival_min: 60,
      stay_from: '2026-07-01',
      stay_to: '2026-08-31',
      book_from: '2026-01-01',
      book_to: '2026-06-30',
      resv_min: 2,
      resv_max: 7,
      resv_from_time: '09:00',
      resv_to_time: '21:30',
      rate_plan_ids: [first?.id, 'PP', first?.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      days_before_arrival_min: 60,
      resv_min: 2,
      resv_max: 7,
      resv_from_time: '09:00',
      resv_to_time: '21:30',
      rate_plan_ids: [first?.id, second?.id],
    });
  });

  it('lets a window reach midnight with 00:00 or 24:00 on either side', async () => {
    for (const [from, to] of [
      ['22:00', '00:00'],
      ['22:00', '24:00'],
      ['00:00', '06:00'],
    ]) {
      const res = await call(c, 'POST', base(), {
        name: 'Night owl',
        type: 'basic',
        discount_type: 'percent',
        discount_value: 5,
        resv_from_time: from,
        resv_to_time: to,
      });
      expect(res.status).toBe(201);
    }
  });

  it('keeps a mobile promotion free of stay conditions', async () => {
    const res = await call(c, 'POST', base(), {
      name: 'App only',
      type: 'mobile',
      discount_type: 'percent',
      discount_value: 8,
      resv_min: 5,
      resv_max: 2,
      stay_from: '2026-09-01',
      stay_to: '2026-08-01',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'mobile',
      resv_min: null,
      resv_max: null,
      stay_from: null,
      stay_to: null,
    });
  });

  it('PATCH changes only the fields present; delete removes it', async () => {
    const created = await call(c, 'POST', base(), {
      name: 'Weekend',
      type: 'basic',
      discount_type: 'percent',
      discount_value: 12,
      resv_min: 2,
    });
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { resv_max: 3, is_active: false });
    expect(res.body.data).toMatchObject({
      name: 'Weekend',
      discount_value: 12,
      resv_min: 2,
      resv_max: 3,
      is_active: false,
    });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).body.data).toEqual(res.body.data);
    expect((await call(c, 'DELETE', `${base()}/${created.body.data.id}`)).body.data.deleted).toBe(true);
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).status).toBe(404);
    expect(await eventsOf(c, 'promotion.deleted')).toContainEqual({
      property_id: c.property,
      promotion_id: created.body.data.id,
    });
  });
});
