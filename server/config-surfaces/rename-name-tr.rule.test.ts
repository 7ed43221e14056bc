import { describe, expect, it } from 'bun:test';
import { call, configTest, EARLY_BOOKER_PROMOTION } from './test-fixtures.ts';

const c = configTest();

/**
 * Created without `name_tr`, a record stores `{"en-GB": <name>}` (README, name_tr). A PATCH renaming it without
 * `name_tr` refreshes that auto-filled entry to the new name, else the booking engine, which reads `name_tr`,
 * shows the old name; a `name_tr` the partner set (another locale, more entries, other text) is kept.
 */
describe('PATCH renaming a record without name_tr', () => {
  it('refreshes the name_tr auto-filled from the old name, and keeps one the partner set', async () => {
    const property = `/properties/${c.property}`;
    const surfaces = [
      {
        create: [`${property}/payment_policies`, { name: 'Deposit', pay_type: 'be_arr', num_days: 3, percent: 30 }],
        record: (id: string) => `${property}/payment_policies/${id}`,
        name: 'name',
      },
      {
        create: [`${property}/promotions`, EARLY_BOOKER_PROMOTION],
        record: (id: string) => `${property}/promotions/${id}`,
        name: 'name',
      },
      {
        create: [`${property}/extra_services`, { name: 'Parking', price: 12.5, price_type: 1 }],
        record: (id: string) => `${property}/extra_services/${id}`,
        name: 'name',
      },
      {
        create: [`${property}/rate_plans`, { title: 'Summer', room_type_ids: ['APT'], sell_type: 'per_room' }],
        record: (id: string) => `${property}/rate_plans/${id}`,
        name: 'title',
      },
    ] as const;
    for (const surface of surfaces) {
      const created = await call(c, 'POST', surface.create[0], surface.create[1]);
      expect(created.status).toBe(201);
      const path = surface.record(created.body.data.id);
      const renamed = await call(c, 'PATCH', path, { [surface.name]: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.name_tr).toEqual({ 'en-GB': 'Renamed' });
      expect((await call(c, 'GET', path)).body.data.name_tr).toEqual({ 'en-GB': 'Renamed' });
      // Set by the partner: a rename leaves it alone.
      const translated = { 'en-GB': 'Renamed', 'de-DE': 'Umbenannt' };
      expect((await call(c, 'PATCH', path, { name_tr: translated })).status).toBe(200);
      const again = await call(c, 'PATCH', path, { [surface.name]: 'Once more' });
      expect(again.body.data.name_tr).toEqual(translated);
    }
  });
});
