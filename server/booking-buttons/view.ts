import type { BookingButtonRow } from './store.ts';

export function bookingButtonView(b: BookingButtonRow) {
  return {
    id: b.external_id,
    name: b.name,
    url_key: b.url_key,
    url_link: b.url_link,
    is_active: b.is_active,
    currency_code: b.currency_code?.trim() ?? null,
    lng_locale: b.lng_locale,
  };
}
