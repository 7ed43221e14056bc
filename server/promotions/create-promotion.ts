import { ownedCreateRoute } from '../config-surfaces/owned-routes.ts';
import { CreatePromotionBody, PromotionSchema } from './model.ts';
import { createPromotion } from './service.ts';
import { promotionView } from './view.ts';

export const createPromotionRoute = ownedCreateRoute({
  name: 'qc.promotions.create',
  path: '/properties/:property/promotions',
  resource: 'promotion',
  summary: 'Create a promotion',
  description:
    'A discount (`percent` of each night, or `amount_per_night` off each night, never below 0) on the rate plans named (`rate_plan_ids`, empty: all). It applies to a quote when every condition holds: the booking day within `book_from`..`book_to`, its time of day within `resv_from_time`..`resv_to_time` (property-local; `00:00` or `24:00` on either side means no bound, otherwise the end must be later: 422 on `resv_to_time`), the nights within `stay_from`..`stay_to` (nights outside are not discounted), the stay length within `resv_min`..`resv_max` (resv_min > resv_max: 422 on `resv_min`), and the lead time: `early_booker` at least `days_before_arrival_min` days ahead, `last_minute` at most `days_before_arrival_max`. `mobile` promotions apply to mobile bookings only and are exempt from stay conditions (their stay window and resv_min/resv_max are answered null). Promotions do not stack: a quote takes the single best discount among promotions and special offers. Event `promotion.created`.',
  body: CreatePromotionBody,
  schema: PromotionSchema,
  create: createPromotion,
  view: promotionView,
});
