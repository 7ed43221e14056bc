import type { PromotionRow } from './service.ts';

export function promotionView(p: PromotionRow) {
  return {
    id: p.external_id,
    name: p.name,
    name_tr: p.name_tr,
    type: p.type,
    is_active: p.is_active,
    discount_type: p.discount_type,
    discount_value: Number(p.discount_value),
    stay_from: p.stay_from,
    stay_to: p.stay_to,
    book_from: p.book_from,
    book_to: p.book_to,
    resv_min: p.resv_min,
    resv_max: p.resv_max,
    resv_from_time: p.resv_from_time,
    resv_to_time: p.resv_to_time,
    days_before_arrival_min: p.days_before_arrival_min,
    days_before_arrival_max: p.days_before_arrival_max,
    rate_plan_ids: p.rate_plan_ids,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}
