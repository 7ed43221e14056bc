import { beforeAll, describe, expect, it } from 'bun:test';
import { legacyTest } from '../legacy-test-fixture.ts';

/**
 * getBookingOffers applies the property's promotions and its booking module's special offers (the rule in
 * pricing/discounts.ts), created through the modern API. The demo quotes 120 a night on BAR and
 * its -10% child NRF for 2030-06-20..22 (the clock is 2030-06-15 10:00 UTC, 11:00 in Lisbon).
 */
let v1: string;
let button: string;

const { t, f } = legacyTest();
beforeAll(async () => {
  v1 = `/v1/qc/properties/${f.propertyExt}`;
  const buttons = await t.request('GET', `${v1}/booking_buttons`, { token: f.demo.personal_token });
  button = buttons.body.data.booking_buttons[0].id;
});

const modern = (method: string, path: string, body?: unknown) =>
  t.request(method, path, { token: f.demo.personal_token, body });
const offers = (extra: Record<string, string> = {}) =>
  f.call('property/getBookingOffers', {
    query: {
      bm_code: f.bmCode,
      checkin_date: '2030-06-20',
      checkout_date: '2030-06-22',
      'guests[adults]': 2,
      ...extra,
    },
  });
const barOffer = (text: string) => {
  const start = text.indexOf(`{"room_id":${f.roomIds[0]},"room_name":"Double Room","rate_id":${f.barPlanId}`);
  return text.slice(start, text.indexOf('},{"room_id"', start) + 1);
};
const internalId = async (table: 'promotions' | 'special_offers', id: string) =>
  (await t.deps.db.query<{ id: number }>(`select id from ${table} where external_id = $1`, [id]))[0]?.id;

describe('getBookingOffers with promotions and special offers', () => {
  it('discounts the plans a promotion names, byte for byte, and leaves the others as they were', async () => {
    const promo = await modern('POST', `${v1}/promotions`, {
      name: 'Summer 10%',
      type: 'basic',
      discount_type: 'percent',
      discount_value: 10,
      rate_plan_ids: ['BAR'],
    });
    const id = await internalId('promotions', promo.body.data.id);
    const res = await offers();
    expect(barOffer(res.text)).toBe(
      `{"room_id":${f.roomIds[0]},"room_name":"Double Room","rate_id":${f.barPlanId},"rate_name":"Flexible Room Rate",` +
        `"meal_plan":"breakfast","available_qty":5,"price":216.0,"currency":"EUR","nightly_prices":[{"date":"2030-06-20","price":108.0},` +
        `{"date":"2030-06-21","price":108.0}],"price_before_discount":240.0,"discount":{"type":"promotion","id":${id},"name":"Summer 10%"}}`,
    );
    const nrf = res.body.data.offers.find((o: { rate_id: number }) => o.rate_id === f.childPlanId);
    expect(nrf.price).toBe(216);
    expect(nrf.discount).toBeUndefined();
    await modern('DELETE', `${v1}/promotions/${promo.body.data.id}`);
  });

  it("takes the button's special offer when it beats the promotion, and a mobile promotion only on mobile quotes", async () => {
    const promo = await modern('POST', `${v1}/promotions`, {
      name: 'Small',
      type: 'basic',
      discount_type: 'amount_per_night',
      discount_value: 5,
    });
    const offer = await modern('POST', `/v1/qc/booking_buttons/${button}/special_offers`, {
      name: 'Two nights, 15% off',
      active_from_date: '2030-06-01',
      active_to_date: '2030-06-30',
      rate_plans_ids: ['BAR'],
      sfp: { min_nights: 2, max_nights: 2 },
      discount_percent: 15,
    });
    const res = await offers();
    const bar = res.body.data.offers.find((o: { rate_id: number }) => o.rate_id === f.barPlanId);
    expect(bar).toMatchObject({ price: 204, price_before_discount: 240, discount: { type: 'special_offer' } });
    const nrf = res.body.data.offers.find((o: { rate_id: number }) => o.rate_id === f.childPlanId);
    expect(nrf).toMatchObject({ price: 206, discount: { type: 'promotion', name: 'Small' } });

    const app = await modern('POST', `${v1}/promotions`, {
      name: 'App 30%',
      type: 'mobile',
      discount_type: 'percent',
      discount_value: 30,
    });
    expect((await offers()).body.data.offers.map((o: { price: number }) => o.price)).not.toContain(168);
    const mobile = (await offers({ device: 'mobile' })).body.data.offers;
    expect(mobile.find((o: { rate_id: number }) => o.rate_id === f.barPlanId)).toMatchObject({
      price: 168,
      discount: { type: 'promotion', name: 'App 30%' },
    });

    for (const p of [promo, app]) await modern('DELETE', `${v1}/promotions/${p.body.data.id}`);
    await modern('DELETE', `/v1/qc/special_offers/${offer.body.data.id}`);
    expect((await offers()).text).not.toContain('"discount"');
  });

  it('prices the extra services on each offer with with_services=1, discounted unless do_not_apply_promotions', async () => {
    const parking = await modern('POST', `${v1}/extra_services`, {
      name: 'Parking',
      price: 10,
      price_type: 2,
      do_not_apply_promotions: true,
    });
    const promo = await modern('POST', `${v1}/promotions`, {
      name: 'Summer 10%',
      type: 'basic',
      discount_type: 'percent',
      discount_value: 10,
      rate_plan_ids: ['BAR'],
    });
    const ids = await t.deps.db.sql<{ id: number; name: string }>`
      select id, name from extra_services where property_id = ${f.propertyId} order by id`;
    const [breakfast, park] = ids.map((r) => r.id);
    const res = await offers({ with_services: '1' });
    // The demo's breakfast: 12.50 per person and night, 2 adults, 2 nights.
    expect(barOffer(res.text)).toEndWith(
      `"services":[{"id":${breakfast},"name":"Breakfast","price":45.0,"price_before_discount":50.0},` +
        `{"id":${park},"name":"Parking","price":10.0}]}`,
    );
    const nrf = res.body.data.offers.find((o: { rate_id: number }) => o.rate_id === f.childPlanId);
    expect(nrf.services).toEqual([
      { id: breakfast, name: 'Breakfast', price: 50 },
      { id: park, name: 'Parking', price: 10 },
    ]);
    expect((await offers()).text).not.toContain('"services"');
    await modern('DELETE', `${v1}/promotions/${promo.body.data.id}`);
    await modern('DELETE', `${v1}/extra_services/${parking.body.data.id}`);
  });

  it('names a service named only in translations as getPropertySettings does: its first translation in locale-tag order', async () => {
    const created = await modern('POST', `${v1}/extra_services`, {
      name_tr: { 'fr-FR': 'Seulement français', 'de-DE': 'Nur deutsch' },
      price: 1,
      price_type: 1,
    });
    const [row] = await t.deps.db.sql<{ id: number }>`
      select id from extra_services where external_id = ${created.body.data.id}`;
    const named = (lang?: string) => ({ with_services: '1', ...(lang && { lang }) });
    const offered = async (lang?: string) =>
      (await offers(named(lang))).body.data.offers[0].services.find((s: { id: number }) => s.id === row?.id).name;
    const listed = async (lang?: string) =>
      (
        await f.call('property/getPropertySettings', { query: { names: 'services', ...(lang && { lang }) } })
      ).body.data.services.find((s: { id: number }) => s.id === row?.id).name;
    expect(await offered()).toBe('Nur deutsch');
    expect(await listed()).toBe('Nur deutsch');
    expect(await offered('fr')).toBe('Seulement français');
    expect(await listed('fr')).toBe('Seulement français');
    await modern('DELETE', `${v1}/extra_services/${created.body.data.id}`);
  });
});
