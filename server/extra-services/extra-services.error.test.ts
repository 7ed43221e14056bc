import { describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/extra_services`;
const service = (over: Record<string, unknown> = {}) => ({ name: 'Parking', price: 10, price_type: 2, ...over });

describe('extra service refusals', () => {
  it('needs name or a non-empty name_tr value', async () => {
    for (const naming of [{ name: '' }, { name: ' ', name_tr: { 'en-GB': '' } }, { name: undefined }])
      expect(validationErrors(await call(c, 'POST', base(), service(naming)))).toEqual({
        name: ['customer.extra_service.messages.name_or_name_tr_required'],
      });
  });

  it('refuses a PATCH that leaves the service nameless and writes nothing', async () => {
    const created = await call(c, 'POST', base(), service({ name: 'Parking', name_tr: {} }));
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { name: '', name_tr: {} });
    expect(Object.keys(validationErrors(res))).toEqual(['name']);
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).body.data.name).toBe('Parking');
  });

  it('needs min_days <= max_days, both present, for a guest-picked range', async () => {
    expect(
      validationErrors(
        await call(
          c,
          'POST',
          base(),
          service({ client_select_dates_settings: { type: '2', min_days: 4, max_days: 2 } }),
        ),
      ),
    ).toEqual({ 'client_select_dates_settings.min_days': ['customer.extra_service.messages.min_gt_max'] });
    expect(
      Object.keys(
        validationErrors(await call(c, 'POST', base(), service({ client_select_dates_settings: { type: '2' } }))),
      ),
    ).toEqual(['client_select_dates_settings.min_days', 'client_select_dates_settings.max_days']);
  });

  it('validates price_type, week days, the dates type and the price', async () => {
    expect(Object.keys(validationErrors(await call(c, 'POST', base(), service({ price_type: 9 }))))).toEqual([
      'price_type',
    ]);
    expect(
      Object.keys(validationErrors(await call(c, 'POST', base(), service({ active_week_days: ['mon', 'funday'] })))),
    ).toEqual(['active_week_days.1']);
    expect(Object.keys(validationErrors(await call(c, 'POST', base(), service({ active_week_days: [] }))))).toEqual([
      'active_week_days',
    ]);
    expect(
      Object.keys(
        validationErrors(await call(c, 'POST', base(), service({ client_select_dates_settings: { type: 3 } }))),
      ),
    ).toEqual(['client_select_dates_settings.type']);
    expect(Object.keys(validationErrors(await call(c, 'POST', base(), service({ price: -1 }))))).toEqual(['price']);
  });

  it('answers 404 for an unknown id and for a service of another property', async () => {
    const shadow = c.demo.properties[1]?.id as string;
    const foreign = await call(c, 'POST', `/properties/${shadow}/extra_services`, service());
    for (const id of ['00000000-0000-4000-8000-000000000000', foreign.body.data.id]) {
      expect((await call(c, 'GET', `${base()}/${id}`)).status).toBe(404);
      expect((await call(c, 'PATCH', `${base()}/${id}`, { price: 1 })).status).toBe(404);
      expect((await call(c, 'DELETE', `${base()}/${id}`)).status).toBe(404);
    }
  });
});
