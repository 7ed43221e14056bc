import type { SpecialOfferRow } from './service.ts';

export function specialOfferView(o: SpecialOfferRow) {
  return {
    id: o.external_id,
    booking_button_id: o.button_external_id,
    name: o.name,
    name_tr: o.name_tr,
    is_active: o.is_active,
    active_from_date: o.active_from_date,
    active_to_date: o.active_to_date,
    rate_plans_ids: o.rate_plan_ids,
    sfp: { min_nights: o.min_nights, max_nights: o.max_nights },
    discount_percent: Number(o.discount_percent),
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  };
}
