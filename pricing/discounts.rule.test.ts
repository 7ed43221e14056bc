import { describe, expect, it } from 'bun:test';
import { bestDiscount, type PromotionTerms, type SpecialOfferTerms } from './discounts.ts';

const PLAN = '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a';
const nightly = [
  { date: '2026-07-10', price: 100 },
  { date: '2026-07-11', price: 100 },
  { date: '2026-07-12', price: 120 },
];
const at = { bookedOn: '2026-06-01', bookedAt: '10:30', mobile: false };
const promo = (p: Partial<PromotionTerms> = {}): PromotionTerms => ({
  id: 1,
  name: 'Promo',
  type: 'basic',
  is_active: true,
  discount_type: 'percent',
  discount_value: 10,
  stay_from: null,
  stay_to: null,
  book_from: null,
  book_to: null,
  resv_min: null,
  resv_max: null,
  resv_from_time: '00:00',
  resv_to_time: '24:00',
  days_before_arrival_min: null,
  days_before_arrival_max: null,
  rate_plan_ids: [],
  ...p,
});
const offer = (o: Partial<SpecialOfferTerms> = {}): SpecialOfferTerms => ({
  id: 7,
  name: 'Offer',
  is_active: true,
  active_from_date: '2026-07-01',
  active_to_date: '2026-07-31',
  min_nights: null,
  max_nights: null,
  discount_percent: 15,
  rate_plan_ids: [PLAN],
  ...o,
});
const total = (p: PromotionTerms[], o: SpecialOfferTerms[] = [], moment = at) =>
  bestDiscount(nightly, PLAN, moment, p, o).total;

describe('discounts on a quote', () => {
  it('takes a percent or an amount off each night it covers, never below 0', () => {
    expect(total([promo()])).toBe(288);
    expect(total([promo({ discount_type: 'amount_per_night', discount_value: 30 })])).toBe(230);
    expect(total([promo({ discount_type: 'amount_per_night', discount_value: 500 })])).toBe(0);
    expect(total([promo({ stay_from: '2026-07-12' })])).toBe(308);
  });

  it('applies only when every condition holds', () => {
    const refused: Partial<PromotionTerms>[] = [
      { is_active: false },
      { rate_plan_ids: ['00000000-0000-4000-8000-000000000000'] },
      { book_to: '2026-05-31' },
      { resv_from_time: '11:00' },
      { resv_to_time: '10:30' },
      { type: 'early_booker', days_before_arrival_min: 40 },
      { type: 'last_minute', days_before_arrival_max: 38 },
      { resv_min: 4 },
      { resv_max: 2 },
      { stay_to: '2026-07-09' },
      { type: 'mobile' },
    ];
    for (const p of refused) expect({ p, total: total([promo(p)]) }).toEqual({ p, total: 320 });
    expect(total([promo({ type: 'early_booker', days_before_arrival_min: 39 })])).toBe(288);
  });

  it('lets a mobile promotion ignore the stay conditions on a mobile quote', () => {
    const mobile = promo({ type: 'mobile', resv_min: 9, stay_to: '2026-01-01' });
    expect(total([mobile], [], { ...at, mobile: true })).toBe(288);
  });

  it('fits a special offer when every night is in its dates and the length in sfp', () => {
    expect(total([], [offer()])).toBe(272);
    expect(total([], [offer({ active_to_date: '2026-07-11' })])).toBe(320);
    expect(total([], [offer({ min_nights: 4 })])).toBe(320);
    expect(total([], [offer({ max_nights: 2 })])).toBe(320);
    expect(total([], [offer({ rate_plan_ids: [] })])).toBe(320);
  });

  it('never stacks: the single best discount wins and is named', () => {
    const res = bestDiscount(
      nightly,
      PLAN,
      at,
      [promo(), promo({ id: 2, name: 'Bigger', discount_value: 20 })],
      [offer()],
    );
    expect(res).toEqual({
      applied: { type: 'promotion', id: 2, name: 'Bigger', percent: 20 },
      nightly: [
        { date: '2026-07-10', price: 80 },
        { date: '2026-07-11', price: 80 },
        { date: '2026-07-12', price: 96 },
      ],
      total: 256,
    });
    expect(bestDiscount(nightly, PLAN, at, [promo()], [offer()]).applied).toEqual({
      type: 'special_offer',
      id: 7,
      name: 'Offer',
      percent: 15,
    });
  });
});
