import { localToday } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import type { PromotionTerms, QuoteMoment, SpecialOfferTerms } from './discounts.ts';
import type { ExtraService } from './extras.ts';

/**
 * The live promotions of a property and the live special offers of a booking button (none without one),
 * as the discount rule reads them (pricing/discounts.ts), oldest first.
 */
export async function readDiscounts(
  db: Db,
  propertyId: number,
  bookingButtonId: number | null,
): Promise<{ promotions: PromotionTerms[]; offers: SpecialOfferTerms[] }> {
  const promotions = await db.sql<PromotionTerms>`
    select id, name, type, is_active, discount_type, discount_value, stay_from, stay_to, book_from, book_to,
      resv_min, resv_max, resv_from_time, resv_to_time, days_before_arrival_min, days_before_arrival_max,
      rate_plan_ids::text[] as rate_plan_ids
    from promotions where property_id = ${propertyId} and deleted_at is null and is_active order by id`;
  const offers = bookingButtonId
    ? await db.sql<SpecialOfferTerms>`
        select id, name, is_active, active_from_date, active_to_date, min_nights, max_nights, discount_percent,
          rate_plan_ids::text[] as rate_plan_ids
        from special_offers where booking_button_id = ${bookingButtonId} and deleted_at is null and is_active
        order by id`
    : [];
  return { promotions, offers };
}

/** The moment a quote is made, on the property's wall clock. */
export function quoteMoment(timeZone: string, now: Date, mobile: boolean): QuoteMoment {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return { bookedOn: localToday(timeZone, now), bookedAt: time.format(now), mobile };
}

export interface NamedExtraService extends ExtraService {
  name: string;
  name_tr: Record<string, string>;
  select_max_days: number | null;
}

/**
 * The property's live extra services, oldest first: what a quote prices (pricing/extras.ts) and what
 * legacy getPropertySettings `services` lists.
 */
export async function readExtraServices(db: Db, propertyId: number): Promise<NamedExtraService[]> {
  return db.sql<NamedExtraService>`
    select id, name, name_tr, price, price_type, is_daily, do_not_apply_promotions, active_week_days,
      select_dates_type, select_min_days, select_max_days
    from extra_services where property_id = ${propertyId} and deleted_at is null order by id`;
}
