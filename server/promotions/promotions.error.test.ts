import { describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/promotions`;
const promo = (over: Record<string, unknown> = {}) => ({
  name: 'Promo',
  type: 'basic',
  discount_type: 'percent',
  discount_value: 10,
  ...over,
});
const rule = (name: string) => [`customer.promotion.messages.${name}`];

describe('promotion refusals', () => {
  it('refuses resv_min > resv_max on resv_min', async () => {
    expect(validationErrors(await call(c, 'POST', base(), promo({ resv_min: 5, resv_max: 3 })))).toEqual({
      resv_min: rule('resv_min_gt_resv_max'),
    });
  });

  it('refuses a time window that does not end after it starts, on resv_to_time', async () => {
    for (const [from, to] of [
      ['18:00', '09:00'],
      ['12:00', '12:00'],
    ])
      expect(
        validationErrors(await call(c, 'POST', base(), promo({ resv_from_time: from, resv_to_time: to }))),
      ).toEqual({ resv_to_time: rule('resv_to_time_not_after_resv_from_time') });
    expect(Object.keys(validationErrors(await call(c, 'POST', base(), promo({ resv_from_time: '24:30' }))))).toEqual([
      'resv_from_time',
    ]);
  });

  it('refuses inverted stay, booking and lead windows, and a percent above 100', async () => {
    const res = await call(
      c,
      'POST',
      base(),
      promo({
        stay_from: '2026-09-01',
        stay_to: '2026-08-01',
        book_from: '2026-05-02',
        book_to: '2026-05-01',
        days_before_arrival_min: 10,
        days_before_arrival_max: 5,
        discount_value: 101,
      }),
    );
    expect(validationErrors(res)).toEqual({
      stay_to: rule('before_stay_from'),
      book_to: rule('before_book_from'),
      days_before_arrival_min: rule('gt_days_before_arrival_max'),
      discount_value: rule('percent'),
    });
  });

  it('needs the lead time of early_booker and last_minute promotions', async () => {
    expect(validationErrors(await call(c, 'POST', base(), promo({ type: 'early_booker' })))).toEqual({
      days_before_arrival_min: rule('required'),
    });
    expect(validationErrors(await call(c, 'POST', base(), promo({ type: 'last_minute' })))).toEqual({
      days_before_arrival_max: rule('required'),
    });
  });

  it('refuses a rate plan that is not on the property, naming its position', async () => {
    const shadowPlan = (c.demo.properties[1] as any).rate_plans[0].id;
    expect(validationErrors(await call(c, 'POST', base(), promo({ rate_plan_ids: ['BAR', shadowPlan] })))).toEqual({
      'rate_plan_ids.1': rule('not_found'),
    });
  });

  it('checks the merged promotion on PATCH and writes nothing when it fails', async () => {
    const created = await call(c, 'POST', base(), promo({ resv_max: 3 }));
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { resv_min: 4 });
    expect(validationErrors(res)).toEqual({ resv_min: rule('resv_min_gt_resv_max') });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).body.data.resv_min).toBeNull();
  });

  it('answers 404 for an unknown id and a promotion of another property', async () => {
    const shadow = c.demo.properties[1]?.id as string;
    const foreign = await call(c, 'POST', `/properties/${shadow}/promotions`, promo());
    for (const id of ['00000000-0000-4000-8000-000000000000', foreign.body.data.id]) {
      expect((await call(c, 'GET', `${base()}/${id}`)).status).toBe(404);
      expect((await call(c, 'PATCH', `${base()}/${id}`, { name: 'x' })).status).toBe(404);
      expect((await call(c, 'DELETE', `${base()}/${id}`)).status).toBe(404);
    }
  });
});
