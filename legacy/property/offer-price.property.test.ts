import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { addRatePlan, type Ref } from '../../server/inventory/test-fixtures.ts';
import type { OccupancyEntry, SellType } from '../../server/rate-plans/vocabulary.ts';
import { legacyTest } from '../legacy-test-fixture.ts';

/**
 * Legacy getBookingOffers and GET /rate_plans/{id}/rates price through one engine, so for any calendar and
 * code vocabulary an offer's nightly price is exactly the sum of the codes its guests use as GET .../rates
 * publishes them for that date (a child plan included), its total the sum of its nights, and a pair is
 * offered exactly when every night has a price for its adults. Each run builds a fresh room (so runs never
 * see each other's calendar) with a random vocabulary on a parent plan and a child plan, pushes random
 * manual prices (cents and half cents like 1.005) through the modern API, and compares the two answers.
 */

const { t, f } = legacyTest();

const CODES: Record<SellType, string[]> = {
  per_room: ['ROOM'],
  per_person: ['A1', 'A2', 'A3', 'CEB', 'CNB', 'CRB', 'TNB', 'INB'],
  per_occupancy: ['A1', 'Apn1', 'Apn2', 'Cpn2', 'Cpn3', 'Tpn2', 'Tpn3', 'Ipn2'],
};
const CHECKIN = '2030-07-01';
const DATES = ['2030-07-01', '2030-07-02', '2030-07-03'];
/** The property has no age groups of its own: the legacy defaults. */
const letterOf = (age: number) => (age <= 2 ? 'I' : age <= 11 ? 'C' : 'T');

const money = fc.oneof(
  fc.integer({ min: 0, max: 30_000 }).map((cents) => cents / 100),
  fc.integer({ min: 0, max: 3_000 }).map((cents) => (cents * 10 + 5) / 1000),
);

function vocabularyOf(sellType: SellType): fc.Arbitrary<OccupancyEntry[]> {
  const codes = CODES[sellType];
  const entry = (code: string): fc.Arbitrary<OccupancyEntry> =>
    code === 'ROOM'
      ? fc.constant({ code, kind: 'manual' })
      : fc.oneof(
          { weight: 3, arbitrary: fc.constant({ code, kind: 'manual' as const }) },
          {
            weight: 3,
            arbitrary: fc.record({
              code: fc.constant(code),
              kind: fc.constant('derived' as const),
              derived_from: fc.constantFrom(...codes),
              modifier: fc.tuple(
                fc.constantFrom(
                  'decrease_by_percent' as const,
                  'increase_by_percent' as const,
                  'decrease_by_amount' as const,
                  'increase_by_amount' as const,
                ),
                fc.oneof(fc.integer({ min: 0, max: 150 }), money),
              ),
            }),
          },
          {
            weight: 1,
            arbitrary: fc.record({ code: fc.constant(code), kind: fc.constant('fee' as const), fee: money }),
          },
          { weight: 1, arbitrary: fc.constant({ code, kind: 'cost_free' as const }) },
          { weight: 1, arbitrary: fc.constant({ code, kind: 'inactive' as const }) },
        );
  return fc.tuple(...codes.map(entry));
}

const scenario = fc.constantFrom<SellType>('per_room', 'per_person', 'per_occupancy').chain((sellType) =>
  fc.record({
    sellType: fc.constant(sellType),
    vocabulary: vocabularyOf(sellType),
    // Per night, a price for some of the codes (codes the vocabulary does not make manual are left out).
    nightly: fc.tuple(...DATES.map(() => fc.dictionary(fc.constantFrom(...CODES[sellType]), money))),
    nights: fc.integer({ min: 1, max: DATES.length }),
    childPercent: fc.oneof(fc.integer({ min: -120, max: 60 }), fc.constantFrom(-33.3, 12.5, 0.5)),
    periodPercent: fc.integer({ min: -100, max: 100 }),
    periodDate: fc.constantFrom(...DATES),
    adults: fc.integer({ min: 1, max: 3 }),
    childAges: fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 2 }),
  }),
);

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** The night price of an occupancy from the codes GET .../rates shows, written out independently of the engine. */
function expectedNight(s: Scenario, prices: Record<string, number>): number | undefined {
  const letters = s.childAges.map(letterOf);
  const sum = (values: (number | undefined)[]) =>
    values.some((v) => v === undefined) ? undefined : values.reduce((a, b) => (a as number) + (b as number), 0);
  let total: number | undefined;
  if (s.sellType === 'per_room') total = prices.ROOM;
  else if (s.sellType === 'per_person')
    total = sum([
      prices[`A${s.adults}`],
      ...letters.map((l) => prices[`${l}EB`] ?? prices[`${l}NB`] ?? prices[`${l}RB`] ?? 0),
    ]);
  else {
    const supplements = Array.from({ length: s.adults - 1 }, (_, k) => prices[`Apn${k + 1}`]);
    total = sum([prices.A1, ...supplements, ...letters.map((l, i) => prices[`${l}pn${s.adults + i}`] ?? 0)]);
  }
  return total === undefined ? undefined : Math.round(total * 100) / 100;
}

async function build(s: Scenario): Promise<{ room: number; plans: Ref[] }> {
  const db = t.deps.db;
  const [room] = await db.sql<{ id: number; external_id: string }>`
    insert into room_types (property_id, name, qty, max_adults, max_children, max_infants, regular_beds, extra_beds)
    values (${f.propertyId}, 'Property test room', 5, 3, 2, 2, 2, 1) returning id, external_id`;
  if (!room) throw new Error('room insert returned no row');
  const parent = await addRatePlan(db, f.propertyId, {
    sellType: s.sellType,
    pairs: [{ roomTypeId: room.id, occupancies: s.vocabulary }],
  });
  const child = await addRatePlan(db, f.propertyId, {
    sellType: s.sellType,
    parentId: parent.id,
    derivation: {
      percent: s.childPercent,
      periods: [{ from: s.periodDate, to: s.periodDate, percent: s.periodPercent }],
    },
    pairs: [{ roomTypeId: room.id, occupancies: s.vocabulary }],
  });
  const manual = new Set(s.vocabulary.filter((e) => e.kind === 'manual').map((e) => e.code));
  const push = async (endpoint: string, values: unknown[]) => {
    if (!values.length) return;
    const res = await t.request('POST', `/v1/qc/properties/${f.propertyExt}/inventory/${endpoint}`, {
      token: f.demo.personal_token,
      body: { values },
    });
    if (res.status !== 202 || res.body.data.warnings.length) throw new Error(res.text);
  };
  await push('availability', [
    { room_type_id: room.external_id, date_from: DATES[0], date_to: DATES.at(-1), availability: 2 },
  ]);
  await push(
    'rates',
    DATES.flatMap((date, i) => {
      const prices = Object.fromEntries(Object.entries(s.nightly[i] ?? {}).filter(([code]) => manual.has(code)));
      return Object.keys(prices).length
        ? [{ room_type_id: room.external_id, rate_plan_id: parent.external_id, date_from: date, date_to: date, prices }]
        : [];
    }),
  );
  return { room: room.id, plans: [parent, child] };
}

interface OfferView {
  room_id: number;
  rate_id: number;
  price: number;
  nightly_prices: { date: string; price: number }[];
}

describe('one pricing engine', () => {
  it('prices every legacy offer as the sum of the codes GET .../rates publishes (fast-check, PostgreSQL)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { room, plans } = await build(s);
        const dates = DATES.slice(0, s.nights);
        const checkout = DATES[s.nights] ?? '2030-07-04';
        const guests: Record<string, number> = { 'guests[adults]': s.adults };
        s.childAges.forEach((age, i) => {
          guests[`guests[children_by_ages][${i}][age]`] = age;
        });
        const res = await f.call('property/getBookingOffers', {
          query: { bm_code: f.bmCode, checkin_date: CHECKIN, checkout_date: checkout, ...guests },
        });
        expect(res.status).toBe(200);
        const offers = (res.body.data.offers as OfferView[]).filter((o) => o.room_id === room);

        for (const plan of plans) {
          const rates = await t.request(
            'GET',
            `/v1/qc/properties/${f.propertyExt}/rate_plans/${plan.external_id}/rates?from=${CHECKIN}&to=${dates.at(-1)}`,
            { token: f.demo.personal_token },
          );
          expect(rates.status).toBe(200);
          const days: { date: string; prices: Record<string, number> }[] = rates.body.data.rooms[0].values;
          const nightly = days.map((d) => ({ date: d.date, price: expectedNight(s, d.prices) }));
          const offer = offers.find((o) => o.rate_id === plan.id);
          if (nightly.some((n) => n.price === undefined)) {
            expect(offer).toBeUndefined();
            continue;
          }
          expect(offer?.nightly_prices).toEqual(nightly as { date: string; price: number }[]);
          const total = nightly.reduce((sum, n) => sum + (n.price as number), 0);
          expect(offer?.price).toBe(Math.round(total * 100) / 100);
          for (const n of nightly) expect(n.price).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
