import { beforeAll, describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
let button: string;
const offer = (over: Record<string, unknown> = {}) => ({
  name: 'Offer',
  active_from_date: '2026-07-01',
  active_to_date: '2026-08-31',
  rate_plans_ids: ['BAR'],
  discount_percent: 10,
  ...over,
});
const create = (body: unknown) => call(c, 'POST', `/booking_buttons/${button}/special_offers`, body);

beforeAll(async () => {
  button = (await call(c, 'GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
});

describe('special offer refusals', () => {
  it('refuses sfp.min_nights > sfp.max_nights with errors.qc.sfp_min_gt_max_nights', async () => {
    const res = await create(offer({ sfp: { min_nights: 5, max_nights: 3 } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'error',
      message: 'errors.qc.sfp_min_gt_max_nights',
      errors: { 'sfp.min_nights': ['customer.special_offer.messages.gt_max_nights'] },
    });
  });

  it('requires the active dates and a non-empty rate_plans_ids', async () => {
    const missing = validationErrors(await create({ name: 'x', discount_percent: 5, rate_plans_ids: [] }));
    expect(Object.keys(missing).sort()).toEqual(['active_from_date', 'active_to_date', 'rate_plans_ids']);
    expect(missing.rate_plans_ids).toEqual(['customer.special_offer.messages.min_items']);
    expect(validationErrors(await create(offer({ active_from_date: '2026-09-01' })))).toEqual({
      active_to_date: ['customer.special_offer.messages.before_active_from_date'],
    });
  });

  it("refuses a rate plan that is not on the button's property", async () => {
    const shadowPlan = (c.demo.properties[1] as any).rate_plans[0].id;
    expect(validationErrors(await create(offer({ rate_plans_ids: ['BAR', shadowPlan] })))).toEqual({
      'rate_plans_ids.1': ['customer.special_offer.messages.not_found'],
    });
  });

  it('checks the merged offer on PATCH and writes nothing when it fails', async () => {
    const created = (await create(offer({ sfp: { min_nights: 2, max_nights: 4 } }))).body.data;
    const res = await call(c, 'PATCH', `/special_offers/${created.id}`, { sfp: { min_nights: 6, max_nights: 4 } });
    expect(res.body.message).toBe('errors.qc.sfp_min_gt_max_nights');
    expect(
      validationErrors(await call(c, 'PATCH', `/special_offers/${created.id}`, { active_to_date: '2026-06-01' })),
    ).toEqual({ active_to_date: ['customer.special_offer.messages.before_active_from_date'] });
    const list = (await call(c, 'GET', `/booking_buttons/${button}/special_offers`)).body.data.special_offers;
    expect(list.find((o: { id: string }) => o.id === created.id)).toEqual(created);
  });

  it('answers 404 for an unknown button or offer', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect((await call(c, 'GET', `/booking_buttons/${id}/special_offers`)).status).toBe(404);
      expect((await call(c, 'POST', `/booking_buttons/${id}/special_offers`, offer())).status).toBe(404);
      expect((await call(c, 'PATCH', `/special_offers/${id}`, { name: 'x' })).status).toBe(404);
      expect((await call(c, 'DELETE', `/special_offers/${id}`)).status).toBe(404);
    }
  });
});
