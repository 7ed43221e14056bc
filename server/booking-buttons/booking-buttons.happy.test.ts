import { describe, expect, it } from 'bun:test';
import { call, configTest } from '../config-surfaces/test-fixtures.ts';

const c = configTest();

describe('booking buttons', () => {
  it("lists the legacy booking modules: url_key is the legacy facade's bm_code", async () => {
    const res = await call(c, 'GET', `/properties/${c.property}/booking_buttons`);
    expect(res.status).toBe(200);
    const legacy = c.demo.legacy as { bm_code: string };
    expect(res.body.data.booking_buttons).toEqual([
      {
        id: expect.any(String),
        legacy_id: expect.any(Number),
        name: 'Seaside booking engine',
        url_key: legacy.bm_code,
        url_link: `https://book.example.com/${legacy.bm_code}`,
        is_active: true,
        currency_code: 'EUR',
        lng_locale: 'en-GB',
      },
    ]);
    expect(res.body.data.meta).toEqual({ total: 1, page: 1, per_page: 200, last_page: 1 });
  });

  it('names the legacy id of each button: legacy_id is the id getPropertySettings booking_modules lists', async () => {
    const res = await call(c, 'GET', `/properties/${c.property}/booking_buttons`);
    const settings = await c.t.request('GET', '/api/pms/v1/property/getPropertySettings', {
      query: { api_key: c.demo.legacy_api_key as string, names: 'booking_modules' },
    });
    const [module] = JSON.parse(settings.text).data.booking_modules as { id: number; url_key: string }[];
    const [button] = res.body.data.booking_buttons as { legacy_id: number; url_key: string }[];
    expect(module?.id).toEqual(expect.any(Number));
    expect(button?.legacy_id).toBe(module?.id as number);
    expect(button?.url_key).toBe(module?.url_key as string);
  });

  it('shows an inactive button too, and the same row is what the legacy modules list reads', async () => {
    const legacy = c.demo.legacy as { bm_code: string };
    await c.t.deps.db.sql`update booking_buttons set is_active = false where url_key = ${legacy.bm_code}`;
    const res = await call(c, 'GET', `/properties/${c.property}/booking_buttons`);
    expect(res.body.data.booking_buttons[0].is_active).toBe(false);
    const settings = await c.t.request('GET', '/api/pms/v1/property/getPropertySettings', {
      query: { api_key: c.demo.legacy_api_key as string, names: 'booking_modules' },
    });
    expect(settings.text).toBe('{"data":{"booking_modules":[]}}');
    await c.t.deps.db.sql`update booking_buttons set is_active = true where url_key = ${legacy.bm_code}`;
  });

  it('lists none for a property without buttons', async () => {
    const res = await call(c, 'GET', `/properties/${c.demo.properties[1]?.id}/booking_buttons`);
    expect(res.body.data).toEqual({ booking_buttons: [], meta: { total: 0, page: 1, per_page: 200, last_page: 1 } });
  });
});
