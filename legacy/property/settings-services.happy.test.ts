import { beforeAll, describe, expect, it } from 'bun:test';
import { legacyTest } from '../legacy-test-fixture.ts';

/** getPropertySettings `services`: the property's extra services (modern API) with their legacy bytes. */
let breakfastId: number;

const { t, f } = legacyTest();
beforeAll(async () => {
  const [row] = await t.deps.db.sql<{ id: number }>`
    select id from extra_services where property_id = ${f.propertyId} and name = 'Breakfast'`;
  breakfastId = row?.id as number;
});

const services = (lang?: string) =>
  f.call('property/getPropertySettings', { query: lang ? { names: 'services', lang } : { names: 'services' } });

const breakfast = (name: string) =>
  `{"id":${breakfastId},"name":"${name}","price":12.5,"price_type":3,"is_daily":true,"do_not_apply_promotions":false,"active_week_days":["mon","tue","wed","thu","fri","sat","sun"],"client_select_dates_settings":{"type":"0","min_days":null,"max_days":null}}`;

describe('getPropertySettings services', () => {
  it("lists the demo's extra service byte for byte", async () => {
    const res = await services();
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"data":{"services":[${breakfast('Breakfast')}]}}`);
  });

  it('follows creates, edits and deletes through the modern API, names at the request locale', async () => {
    const modern = `/v1/qc/properties/${f.propertyExt}/extra_services`;
    const created = await t.request('POST', modern, {
      token: f.demo.personal_token,
      body: {
        name_tr: { 'pt-PT': 'Estacionamento coberto', 'fr-FR': 'Parking/garé' },
        price: 10,
        price_type: 2,
        do_not_apply_promotions: true,
        active_week_days: ['sat', 'sun'],
        client_select_dates_settings: { type: '2', min_days: 1, max_days: 3 },
      },
    });
    expect(created.status).toBe(201);
    const [row] = await t.deps.db.sql<{
      id: number;
    }>`select id from extra_services where external_id = ${created.body.data.id}`;
    const parking = (name: string) =>
      `{"id":${row?.id},"name":"${name}","price":10.0,"price_type":2,"is_daily":false,"do_not_apply_promotions":true,"active_week_days":["sat","sun"],"client_select_dates_settings":{"type":"2","min_days":1,"max_days":3}}`;
    // No translation at the locale and no plain name: the first translation in locale-tag order.
    expect((await services()).text).toBe(
      `{"data":{"services":[${breakfast('Breakfast')},${parking('Parking\\/gar\\u00e9')}]}}`,
    );
    expect((await services('pt-PT')).text).toContain(parking('Estacionamento coberto'));
    expect((await services('pt-PT')).text).toContain(breakfast('Pequeno-almo\\u00e7o'));

    await t.request('DELETE', `${modern}/${created.body.data.id}`, { token: f.demo.personal_token });
    expect((await services()).text).toBe(`{"data":{"services":[${breakfast('Breakfast')}]}}`);
  });
});
