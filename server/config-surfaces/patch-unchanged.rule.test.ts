import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from './test-fixtures.ts';

const c = configTest();

/**
 * The event catalogue says `<entity>.updated` means the record changed (spec 6.3: a policy's body changed). A
 * PATCH that sends the values already stored (a retry without Idempotency-Key, a partner re-pushing its
 * configuration) changes nothing: it writes nothing, records no event and keeps `updated_at`.
 */
describe('PATCH that changes nothing', () => {
  it('records no .updated event and keeps updated_at, for every owned configuration entity', async () => {
    const property = `/properties/${c.property}`;
    const button = (await call(c, 'GET', `${property}/booking_buttons`)).body.data.booking_buttons[0].id;
    const entities = [
      {
        event: 'payment_policy.updated',
        create: [`${property}/payment_policies`, { name: 'Deposit', pay_type: 'be_arr', num_days: 3, percent: 30 }],
        record: (id: string) => `${property}/payment_policies/${id}`,
        same: { name: 'Deposit', num_days: 3 },
        change: { percent: 40 },
      },
      {
        event: 'cancellation_policy.updated',
        create: [
          `${property}/cancellation_policies`,
          { name: 'Strict', data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }] },
        ],
        record: (id: string) => `${property}/cancellation_policies/${id}`,
        same: { data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }] },
        change: { name: 'Stricter' },
      },
      {
        event: 'extra_service.updated',
        create: [`${property}/extra_services`, { name: 'Parking', price: 12.5, price_type: 1 }],
        record: (id: string) => `${property}/extra_services/${id}`,
        same: { price: 12.5, active_week_days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
        change: { price: 13 },
      },
      {
        event: 'promotion.updated',
        create: [
          `${property}/promotions`,
          {
            name: 'Early',
            type: 'early_booker',
            discount_type: 'percent',
            discount_value: 10,
            days_before_arrival_min: 30,
          },
        ],
        record: (id: string) => `${property}/promotions/${id}`,
        same: { discount_value: 10, rate_plan_ids: [] },
        change: { discount_value: 12 },
      },
      {
        event: 'special_offer.updated',
        create: [
          `/booking_buttons/${button}/special_offers`,
          {
            name: 'Week',
            active_from_date: '2030-01-01',
            active_to_date: '2030-02-01',
            rate_plans_ids: ['BAR'],
            discount_percent: 15,
          },
        ],
        record: (id: string) => `/special_offers/${id}`,
        same: { rate_plans_ids: ['BAR'], sfp: { min_nights: null } },
        change: { discount_percent: 20 },
      },
    ] as const;
    for (const entity of entities) {
      const created = await call(c, 'POST', entity.create[0], entity.create[1]);
      expect(created.status).toBe(201);
      const path = entity.record(created.body.data.id);
      // A write from now on would stamp a later updated_at.
      c.t.clock.advance(60_000);
      const before = (await eventsOf(c, entity.event)).length;
      for (const body of [{}, entity.same]) {
        const res = await call(c, 'PATCH', path, body);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual(created.body.data);
      }
      expect((await eventsOf(c, entity.event)).length).toBe(before);
      const changed = await call(c, 'PATCH', path, entity.change);
      expect(changed.body.data).toMatchObject(entity.change);
      expect(changed.body.data.updated_at).not.toBe(created.body.data.updated_at);
      expect((await eventsOf(c, entity.event)).length).toBe(before + 1);
    }
  });
});
