import { beforeAll, describe, expect, it } from 'bun:test';
import { legacyTest } from '../../legacy/legacy-test-fixture.ts';

/**
 * New brackets apply from the next quote: the stored vocabularies of every pair are re-derived (child
 * codes carry the new ages, and vanish while the brackets are inactive), and legacy offers price a child
 * by the bracket its age now falls in.
 */
const { t, f } = legacyTest();
let v1: string;

beforeAll(async () => {
  v1 = `/v1/qc/properties/${f.propertyExt}`;
  const dbl = (f.demo.properties[0] as any).room_types[0].id;
  const res = await t.request('POST', `${v1}/inventory/rates`, {
    token: f.demo.personal_token,
    body: {
      values: [
        {
          room_type_id: dbl,
          rate_plan_id: 'PP',
          date_from: '2030-06-20',
          date_to: '2030-06-21',
          prices: { A1: 80, A2: 100, CRB: 10, CEB: 10, CNB: 10, TRB: 25, TEB: 25, TNB: 25 },
        },
      ],
    },
  });
  if (res.status !== 202) throw new Error(`rates push failed: ${res.text}`);
});

const putAgeGroups = (body: unknown) => t.request('PUT', `${v1}/age-groups`, { token: f.demo.personal_token, body });
const ppEntries = async () => {
  const res = await t.request('GET', `${v1}/rate_plans/PP`, { token: f.demo.personal_token });
  return res.body.data.mappings[0].occupancies as { code: string; from_age?: number; to_age?: number }[];
};
const ppPrice = async (age: number) => {
  const res = await f.call('property/getBookingOffers', {
    query: {
      bm_code: f.bmCode,
      checkin_date: '2030-06-20',
      checkout_date: '2030-06-21',
      'guests[adults]': 2,
      'guests[children_by_ages][0][age]': age,
    },
  });
  const offers = res.body.data.offers as { room_id: number; rate_name: string; price: number }[];
  return offers.find((o) => o.room_id === f.roomIds[0] && o.rate_name === 'Per Person Rate')?.price;
};

describe('age groups in vocabularies and quotes', () => {
  it('re-derives the stored child codes with the new ages and prices a child by its new bracket', async () => {
    expect((await ppEntries()).find((e) => e.code === 'TEB')).toMatchObject({ from_age: 12, to_age: 17 });
    expect(await ppPrice(12)).toBe(125);

    const res = await putAgeGroups({
      groups: [
        { code: 'C', to_age: 12 },
        { code: 'T', from_age: 13 },
      ],
    });
    expect(res.body.data.preview.reprice_note).toMatch(/^The new brackets apply from the next quote: \d+ rate plan/);
    const entries = await ppEntries();
    expect(entries.find((e) => e.code === 'CEB')).toMatchObject({ from_age: 3, to_age: 12 });
    expect(entries.find((e) => e.code === 'TEB')).toMatchObject({ from_age: 13, to_age: 17 });
    expect(await ppPrice(12)).toBe(110);
  });

  it('drops child codes while the brackets are inactive (every guest an adult) and brings them back', async () => {
    await putAgeGroups({ is_active: false });
    expect((await ppEntries()).map((e) => e.code)).toEqual(['A1', 'A2', 'AEB']);
    await putAgeGroups({ is_active: true });
    expect((await ppEntries()).map((e) => e.code)).toContain('CNB');
  });

  it('keeps bookings already made as they were', async () => {
    const [before] = await t.deps.db.sql<{ total_amount: number }>`
      select total_amount from bookings where property_id = ${f.propertyId} order by id limit 1`;
    await putAgeGroups({
      groups: [
        { code: 'I', to_age: 3 },
        { code: 'C', from_age: 4 },
      ],
    });
    const [after] = await t.deps.db.sql<{ total_amount: number }>`
      select total_amount from bookings where property_id = ${f.propertyId} order by id limit 1`;
    expect(after).toEqual(before);
  });
});
