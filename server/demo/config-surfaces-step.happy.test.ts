import { describe, expect, it } from 'bun:test';
import { call, configTest } from '../config-surfaces/test-fixtures.ts';

const c = configTest();

describe('configuration demo step', () => {
  it('carries one of each configuration entity on the live property, readable through the API', async () => {
    const ids = c.demo.configuration;
    expect(Object.keys(ids).length).toBe(7);
    const p = `/properties/${c.property}`;
    expect((await call(c, 'GET', `${p}/payment_policies/${ids.payment_policy_id}`)).body.data).toMatchObject({
      pay_type: 'be_arr',
      num_days: 7,
      percent: 30,
    });
    const cancellation = await call(c, 'GET', `${p}/cancellation_policies/${ids.cancellation_policy_id}`);
    expect(cancellation.body.data.data).toHaveLength(3);
    expect((await call(c, 'GET', `${p}/extra_services/${ids.extra_service_id}`)).body.data.name).toBe('Breakfast');
    expect((await call(c, 'GET', `${p}/promotions/${ids.promotion_id}`)).body.data.type).toBe('mobile');
    expect((await call(c, 'GET', `${p}/age-groups`)).body.data.is_active).toBe(true);
    const buttons = (await call(c, 'GET', `${p}/booking_buttons`)).body.data.booking_buttons;
    expect(buttons.map((b: { id: string }) => b.id)).toEqual([ids.booking_button_id]);
    const offers = await call(c, 'GET', `/booking_buttons/${ids.booking_button_id}/special_offers`);
    expect(offers.body.data.special_offers.map((o: { id: string }) => o.id)).toEqual([ids.special_offer_id]);
    expect(c.demo.configuration).toMatchObject({ age_groups: { is_active: true, groups: expect.any(Array) } });
  });
});
