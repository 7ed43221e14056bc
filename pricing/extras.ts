import { roundMoney } from './price-engine.ts';

/**
 * The price of an extra service on a quote for one room (legacy getBookingOffers `with_services`), the
 * rule written down here and in the README ("Promotions and special offers in quotes"):
 * - units by `price_type`: 1 per booking and 2 per room count 1, 3 per person counts adults and children,
 *   4 adults, 5 children;
 * - days: a daily service counts the nights whose week day is in `active_week_days` (type '0'), one such
 *   night (type '1', the guest picks a day) or `min_days` of them (type '2', the least the guest can pick);
 *   a service that is not daily counts once when any night is on an active week day. No day: not offered;
 * - the quote's discount, when it is a percentage (a percent promotion or a special offer), takes the same
 *   share off the service unless it has `do_not_apply_promotions`; an amount per night only discounts rooms.
 */
export interface ExtraService {
  id: number;
  price: number;
  price_type: number;
  is_daily: boolean;
  do_not_apply_promotions: boolean;
  active_week_days: string[];
  select_dates_type: string;
  select_min_days: number | null;
}

export interface ExtraQuote {
  price: number;
  /** The price before the quote's discount; absent when none applied to the service. */
  undiscounted?: number;
}

const WEEK_DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const weekDay = (date: string) => WEEK_DAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] as string;

export function extraPrice(
  service: ExtraService,
  nights: readonly string[],
  guests: { adults: number; children: number },
  discountPercent: number | null,
): ExtraQuote | undefined {
  const active = nights.filter((d) => service.active_week_days.includes(weekDay(d))).length;
  if (!active) return undefined;
  const days = !service.is_daily
    ? 1
    : service.select_dates_type === '1'
      ? 1
      : service.select_dates_type === '2'
        ? (service.select_min_days ?? 1)
        : active;
  if (days > active) return undefined;
  const units = [1, 1, 1, guests.adults + guests.children, guests.adults, guests.children][service.price_type] ?? 1;
  if (!units) return undefined;
  const price = roundMoney(service.price * units * days);
  if (discountPercent === null || service.do_not_apply_promotions) return { price };
  return { price: roundMoney(price - (price * discountPercent) / 100), undiscounted: price };
}
