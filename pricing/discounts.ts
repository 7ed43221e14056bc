import { daysBetween } from '../server/core/days.ts';
import { roundMoney, stayPrice } from './price-engine.ts';
import { bookedInWindow } from './promotion-window.ts';

/**
 * Promotions and special offers on a quote: the pricing engine's published nightly prices, discounted.
 * The rule (also in the README, "Promotions" and "Special offers"):
 * - A promotion fits a quote when it is active, names the rate plan (or names none), the booking day lies
 *   in book_from..book_to, the booking time in the resv_from_time..resv_to_time window, the lead time (days
 *   from the booking day to check-in) is at least days_before_arrival_min and at most
 *   days_before_arrival_max, and, except for a mobile promotion, the stay length lies in resv_min..resv_max
 *   and at least one night in stay_from..stay_to. A mobile promotion fits mobile quotes only.
 * - It discounts each night it covers (every night for a mobile promotion, else the nights in
 *   stay_from..stay_to): `percent` of the night, or `amount_per_night` off it; each night is money again
 *   (roundMoney: cents, never below 0) and the total is their sum.
 * - A special offer fits when it is active, names the rate plan, every night lies in
 *   active_from_date..active_to_date and the stay length in sfp.min_nights..sfp.max_nights; it takes
 *   discount_percent off every night. Offers only exist on a quote through their booking button.
 * - Discounts never stack: the quote takes the single candidate with the lowest total (ties: promotions
 *   before offers, older before newer); none that lowers the total means no discount.
 */
export interface PromotionTerms {
  id: number;
  name: string;
  type: string;
  is_active: boolean;
  discount_type: string;
  discount_value: number;
  stay_from: string | null;
  stay_to: string | null;
  book_from: string | null;
  book_to: string | null;
  resv_min: number | null;
  resv_max: number | null;
  resv_from_time: string;
  resv_to_time: string;
  days_before_arrival_min: number | null;
  days_before_arrival_max: number | null;
  /** External ids; empty: every plan. */
  rate_plan_ids: string[];
}

export interface SpecialOfferTerms {
  id: number;
  name: string;
  is_active: boolean;
  active_from_date: string;
  active_to_date: string;
  min_nights: number | null;
  max_nights: number | null;
  discount_percent: number;
  rate_plan_ids: string[];
}

/** When and how the quote is asked for, on the property's wall clock. */
export interface QuoteMoment {
  bookedOn: string;
  /** HH:MM */
  bookedAt: string;
  mobile: boolean;
}

export interface Night {
  date: string;
  price: number;
}

export interface Discounted {
  /** `percent` is the share taken off each night, null for an amount per night. */
  applied: { type: 'promotion' | 'special_offer'; id: number; name: string; percent: number | null } | null;
  nightly: Night[];
  total: number;
}

const within = (value: string | number, from: string | number | null, to: string | number | null) =>
  (from === null || value >= from) && (to === null || value <= to);

function promotionNights(p: PromotionTerms, ratePlanId: string, nightly: readonly Night[], at: QuoteMoment) {
  if (!p.is_active || (p.rate_plan_ids.length && !p.rate_plan_ids.includes(ratePlanId))) return undefined;
  if (p.type === 'mobile' && !at.mobile) return undefined;
  const checkin = nightly[0]?.date;
  if (!checkin || !within(at.bookedOn, p.book_from, p.book_to)) return undefined;
  if (!bookedInWindow(p.resv_from_time, p.resv_to_time, at.bookedAt)) return undefined;
  if (!within(daysBetween(at.bookedOn, checkin), p.days_before_arrival_min, p.days_before_arrival_max))
    return undefined;
  if (p.type === 'mobile') return new Set(nightly.map((n) => n.date));
  if (!within(nightly.length, p.resv_min, p.resv_max)) return undefined;
  const covered = new Set(nightly.filter((n) => within(n.date, p.stay_from, p.stay_to)).map((n) => n.date));
  return covered.size ? covered : undefined;
}

function offerFits(o: SpecialOfferTerms, ratePlanId: string, nightly: readonly Night[]): boolean {
  const first = nightly[0]?.date;
  const last = nightly.at(-1)?.date;
  return (
    o.is_active &&
    o.rate_plan_ids.includes(ratePlanId) &&
    first !== undefined &&
    last !== undefined &&
    first >= o.active_from_date &&
    last <= o.active_to_date &&
    within(nightly.length, o.min_nights, o.max_nights)
  );
}

/** The best single discount for one (room, rate plan) quote; `nightly` are the engine's published prices. */
export function bestDiscount(
  nightly: readonly Night[],
  ratePlanId: string,
  at: QuoteMoment,
  promotions: readonly PromotionTerms[],
  offers: readonly SpecialOfferTerms[],
): Discounted {
  const undiscounted = stayPrice(nightly.map((n) => n.price));
  let best: Discounted = { applied: null, nightly: [...nightly], total: undiscounted };
  const consider = (applied: NonNullable<Discounted['applied']>, price: (n: Night) => number) => {
    const discounted = nightly.map((n) => ({ date: n.date, price: price(n) }));
    const total = stayPrice(discounted.map((n) => n.price));
    if (total < best.total) best = { applied, nightly: discounted, total };
  };
  for (const p of promotions) {
    const covered = promotionNights(p, ratePlanId, nightly, at);
    if (!covered) continue;
    const off = (n: Night) => (p.discount_type === 'percent' ? (n.price * p.discount_value) / 100 : p.discount_value);
    const percent = p.discount_type === 'percent' ? p.discount_value : null;
    consider({ type: 'promotion', id: p.id, name: p.name, percent }, (n) =>
      covered.has(n.date) ? roundMoney(n.price - off(n)) : n.price,
    );
  }
  for (const o of offers) {
    if (!offerFits(o, ratePlanId, nightly)) continue;
    consider({ type: 'special_offer', id: o.id, name: o.name, percent: o.discount_percent }, (n) =>
      roundMoney(n.price - (n.price * o.discount_percent) / 100),
    );
  }
  return best;
}
