import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { BookingParams, BookingSchema } from './model.ts';
import { bookingOnProperty } from './partner-lookup.ts';
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
  handle: inProperty(async ({ deps, params }, property) => {
    const booking = await bookingOnProperty(deps.db, property.id, params.booking);
    return ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
  }),
});
