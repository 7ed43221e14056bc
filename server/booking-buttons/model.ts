import { t } from 'elysia';

export const BookingButtonSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  url_key: t.String({ description: 'the bm_code of legacy getBookingOffers' }),
  url_link: t.String(),
  is_active: t.Boolean(),
  currency_code: t.Nullable(t.String()),
  lng_locale: t.String(),
});
