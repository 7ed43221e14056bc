import { ownedListRoute } from '../config-surfaces/owned-routes.ts';
import { BookingButtonSchema } from './model.ts';
import { bookingButtonView } from './view.ts';

export const listBookingButtons = ownedListRoute({
  name: 'qc.booking_buttons.list',
  path: '/properties/:property/booking_buttons',
  resource: 'booking_button',
  table: 'booking_buttons',
  summary: 'Booking buttons of a property (discovery)',
  description:
    "The property's booking-engine entry points, active or not. They are the legacy facade's booking modules: `url_key` is the `bm_code` getBookingOffers takes and getPropertySettings `booking_modules` lists (active ones only). Special offers hang on a button (`/booking_buttons/{id}/special_offers`).",
  schema: BookingButtonSchema,
  view: bookingButtonView,
});
