import type { ExtraServiceRow } from './service.ts';

export function extraServiceView(s: ExtraServiceRow) {
  return {
    id: s.external_id,
    name: s.name,
    name_tr: s.name_tr,
    is_daily: s.is_daily,
    price: Number(s.price),
    price_type: s.price_type,
    do_not_apply_promotions: s.do_not_apply_promotions,
    active_week_days: s.active_week_days,
    client_select_dates_settings: {
      type: s.select_dates_type,
      min_days: s.select_min_days,
      max_days: s.select_max_days,
    },
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}
