import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { BookingParams, BookingSchema } from './model.ts';
import { pathBookingOnProperty } from './path-booking.ts';
import { bookingRooms } from './snapshot.ts';
import { bookingView } from './view.ts';

export const showBooking = defineRoute({
  name: 'qc.bookings.show',
  method: 'GET',
  path: '/properties/:property/bookings/:booking',
  scope: 'bookings.read',
  bucket: 'reads',
  resource: 'booking',
  summary: 'One booking',
  tags: ['bookings'],
  params: BookingParams,
  response: okSchema(BookingSchema),
  errors: ['errors.not_found'],
  pathRecord: pathBookingOnProperty,
  async handle({ deps }, booking) {
    return ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
  },
});
