import { bracketOf, readAgeBrackets } from '../../pricing/age-brackets.ts';
import { bestDiscount, type Discounted, type QuoteMoment } from '../../pricing/discounts.ts';
import {
  type ChildDerivation,
  occupancyPrice,
  type PriceCode,
  type Prices,
  resolveDay,
  stayPrice,
} from '../../pricing/price-engine.ts';
import { readDiscounts } from '../../pricing/quote-terms.ts';
import { readStayCalendar, stayRefusal } from '../../pricing/stay-sellability.ts';
import { addDays, daysOf } from '../../server/core/days.ts';
import type { Db } from '../../server/core/db/db.ts';

/**
 * The quote behind getBookingOffers: for a stay and its guests, every (room, rate plan) pair of the
 * property that can be sold from the calendar, with its price. The pricing rule, written down here and in
 * the README because the spec leaves it open:
 *
 * - A room fits when adults <= max_adults and all guests <= max_adults + max_children + max_infants. A
 *   child whose age falls in no age bracket of the property counts as an adult.
 * - The stay must be sellable for one room of the pair by the one rule partner bookings use
 *   (pricing/stay-sellability.ts); `available_qty` is the smallest free count over the nights.
 * - A night's price is the pricing engine's (pricing/price-engine.ts): the occupancy's codes of the
 *   day exactly as `GET .../rate_plans/{id}/rates` publishes them (derived chains, child plans with the
 *   percentage of each date, cents, never negative), summed; the total is the sum of the nights. A night whose
 *   adult code has no price makes the pair unsellable.
 * - Promotions of the property and special offers of the booking module then discount it: the single best
 *   one, by the rule in pricing/discounts.ts.
 */
export interface Stay {
  checkin: string;
  checkout: string;
  adults: number;
  childAges: number[];
  /** Promotions of the property and the special offers of this booking module apply (discounts.ts). */
  discounts?: { bookingButtonId: number; moment: QuoteMoment };
}

export interface Offer {
  roomId: number;
  roomName: string;
  roomNameTr: Record<string, string>;
  rateId: number;
  rateName: string;
  rateNameTr: Record<string, string>;
  mealPlan: string;
  availableQty: number;
  nightly: { date: string; price: number }[];
  total: number;
  /** The promotion or special offer applied, with the total before it; null when none applies. */
  discount: (NonNullable<Discounted['applied']> & { undiscountedTotal: number }) | null;
}

interface PairRow {
  room_id: number;
  room_name: string;
  room_name_tr: Record<string, string>;
  max_adults: number;
  max_children: number;
  max_infants: number;
  rate_id: number;
  rate_external_id: string;
  rate_name: string;
  rate_name_tr: Record<string, string>;
  meal_plan: string;
  sell_type: string;
  price_plan_id: number;
  derivation: ChildDerivation | null;
  /** The vocabulary prices resolve by: the pair's own, or for a child plan its parent's pair's (null if none). */
  occupancies: PriceCode[] | null;
}

export async function quoteOffers(db: Db, propertyId: number, stay: Stay): Promise<Offer[]> {
  const nights = daysOf(stay.checkin, addDays(stay.checkout, -1));
  const pairs = await db.sql<PairRow>`
    select r.id as room_id, r.name as room_name, r.name_tr as room_name_tr, r.max_adults, r.max_children, r.max_infants,
      p.id as rate_id, p.external_id::text as rate_external_id, p.name as rate_name, p.name_tr as rate_name_tr, p.meal_plan, p.sell_type,
      coalesce(p.parent_id, p.id) as price_plan_id, p.derivation,
      case when p.parent_id is null then rr.occupancies else src.occupancies end as occupancies
    from room_types r
    join rate_plan_rooms rr on rr.room_type_id = r.id and rr.deleted_at is null
    join rate_plans p on p.id = rr.rate_plan_id and p.deleted_at is null
    left join rate_plan_rooms src on src.rate_plan_id = p.parent_id and src.room_type_id = r.id and src.deleted_at is null
    where r.property_id = ${propertyId} and r.deleted_at is null
    order by r.id, p.id`;
  if (!pairs.length) return [];
  const roomTypeIds = [...new Set(pairs.map((p) => p.room_id))];
  const ratePlanIds = [...new Set(pairs.map((p) => p.rate_id))];
  const pricePlanIds = [...new Set(pairs.map((p) => p.price_plan_id))];

  const calendar = await readStayCalendar(db, {
    propertyId,
    roomTypeIds,
    ratePlanIds,
    checkin: stay.checkin,
    checkout: stay.checkout,
  });
  const prices = new Map<string, Prices>();
  for (const p of await db.sql<{ rate_plan_id: number; room_type_id: number; date: string; prices: Prices }>`
    select rate_plan_id, room_type_id, date, prices from rates
    where property_id = ${propertyId} and rate_plan_id = any(${pricePlanIds}::bigint[]) and room_type_id = any(${roomTypeIds}::bigint[])
      and date >= ${stay.checkin}::date and date < ${stay.checkout}::date`) {
    prices.set(`${p.rate_plan_id}|${p.room_type_id}|${p.date}`, p.prices);
  }
  const ages = await readAgeBrackets(db, propertyId);
  const children: (string | undefined)[] = stay.childAges.map((age) => bracketOf(ages, age));
  const adults = stay.adults + children.filter((c) => c === undefined).length;
  const childLetters = children.filter((c): c is string => c !== undefined);
  const sellable = { checkin: stay.checkin, checkout: stay.checkout, nights };
  const { promotions, offers: specialOffers } = stay.discounts
    ? await readDiscounts(db, propertyId, stay.discounts.bookingButtonId)
    : { promotions: [], offers: [] };

  const offers: Offer[] = [];
  for (const pair of pairs) {
    if (
      adults > pair.max_adults ||
      adults + childLetters.length > pair.max_adults + pair.max_children + pair.max_infants
    )
      continue;
    if (stayRefusal(calendar, { ratePlanId: pair.rate_id, roomTypeId: pair.room_id, qty: 1 }, sellable)) continue;
    const pricing = {
      vocabulary: pair.occupancies ?? undefined,
      derivation: pair.derivation,
      isChild: pair.price_plan_id !== pair.rate_id,
    };
    const nightly: { date: string; price: number }[] = [];
    for (const date of nights) {
      const day = resolveDay(pricing, prices.get(`${pair.price_plan_id}|${pair.room_id}|${date}`), date);
      const price = occupancyPrice(pair.sell_type, day, { adults, childLetters });
      if (price === undefined) break;
      nightly.push({ date, price });
    }
    if (nightly.length !== nights.length) continue;
    const discounted = stay.discounts
      ? bestDiscount(nightly, pair.rate_external_id, stay.discounts.moment, promotions, specialOffers)
      : { applied: null, nightly, total: stayPrice(nightly.map((n) => n.price)) };
    offers.push({
      roomId: pair.room_id,
      roomName: pair.room_name,
      roomNameTr: pair.room_name_tr,
      rateId: pair.rate_id,
      rateName: pair.rate_name,
      rateNameTr: pair.rate_name_tr,
      mealPlan: pair.meal_plan,
      availableQty: Math.min(...nights.map((date) => calendar.night(pair.room_id, date)?.free ?? 0)),
      nightly: discounted.nightly,
      total: discounted.total,
      discount: discounted.applied && {
        ...discounted.applied,
        undiscountedTotal: stayPrice(nightly.map((n) => n.price)),
      },
    });
  }
  return offers;
}
