import type { BookingButtonRow } from './store.ts';

export function bookingButtonView(b: BookingButtonRow) {
  return {
    id: b.external_id,
    // The legacy facade's id of the same row, so a partner moving off getPropertySettings can map what it stored.
    legacy_id: Number(b.id),
    name: b.name,
    url_key: b.url_key,
    url_link: b.url_link,
    is_active: b.is_active,
    currency_code: b.currency_code?.trim() ?? null,
    lng_locale: b.lng_locale,
  };
}
