import { t } from 'elysia';

export const BookingButtonSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  legacy_id: t.Integer({
    description:
      'The id the legacy facade uses for this button (getPropertySettings `booking_modules[].id`): map ids stored from the legacy API to `id`',
  }),
  name: t.String(),
  url_key: t.String({ description: 'the bm_code of legacy getBookingOffers' }),
  url_link: t.String(),
  is_active: t.Boolean(),
  currency_code: t.Nullable(t.String()),
  lng_locale: t.String(),
});
