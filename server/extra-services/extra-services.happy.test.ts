import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/extra_services`;

describe('extra services', () => {
  it('creates a service with its defaults: every week day, every day of the stay, promotions apply', async () => {
    const res = await call(c, 'POST', base(), { name: 'Parking', price: 12.5, price_type: 2 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Parking',
      name_tr: {},
      is_daily: false,
      price: 12.5,
      price_type: 2,
      do_not_apply_promotions: false,
      active_week_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      client_select_dates_settings: { type: '0', min_days: null, max_days: null },
    });
    expect(await eventsOf(c, 'extra_service.created')).toContainEqual({
      property_id: c.property,
      extra_service_id: res.body.data.id,
    });
    expect((await call(c, 'GET', `${base()}/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('takes every field: a translated name only, daily, guest-picked range, week days answered Monday first', async () => {
    const res = await call(c, 'POST', base(), {
      name_tr: { 'en-GB': 'Spa access', 'de-DE': 'Spa-Zugang' },
      is_daily: true,
      price: 30,
      price_type: 3,
      do_not_apply_promotions: true,
      active_week_days: ['sun', 'fri', 'sat'],
      client_select_dates_settings: { type: '2', min_days: 1, max_days: 3 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: '',
      is_daily: true,
      do_not_apply_promotions: true,
      active_week_days: ['fri', 'sat', 'sun'],
      client_select_dates_settings: { type: '2', min_days: 1, max_days: 3 },
    });
  });

  it('drops range bounds for types 0 and 1', async () => {
    const res = await call(c, 'POST', base(), {
      name: 'Late checkout',
      price: 20,
      price_type: 1,
      client_select_dates_settings: { type: '1', min_days: 2, max_days: 4 },
    });
    expect(res.body.data.client_select_dates_settings).toEqual({ type: '1', min_days: null, max_days: null });
  });

  it('PATCH changes only the fields present', async () => {
    const created = await call(c, 'POST', base(), { name: 'Breakfast', price: 15, price_type: 4, is_daily: true });
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { price: 17, active_week_days: ['sat'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Breakfast',
      price: 17,
      price_type: 4,
      is_daily: true,
      active_week_days: ['sat'],
    });
    expect(await eventsOf(c, 'extra_service.updated')).toContainEqual({
      property_id: c.property,
      extra_service_id: created.body.data.id,
    });
  });

  it('deletes a service', async () => {
    const created = await call(c, 'POST', base(), { name: 'Towels', price: 3, price_type: 3 });
    expect((await call(c, 'DELETE', `${base()}/${created.body.data.id}`)).body.data).toEqual({
      id: created.body.data.id,
      deleted: true,
    });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).status).toBe(404);
    const listed = (await call(c, 'GET', base())).body.data.extra_services.map((s: { id: string }) => s.id);
    expect(listed).not.toContain(created.body.data.id);
  });
});
