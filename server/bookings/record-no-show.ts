import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { recordNoShow } from './lifecycle.ts';
import { BookingParams, BookingSchema } from './model.ts';
import { pathBookingOnProperty } from './path-booking.ts';
import { bookingView } from './view.ts';

export const recordNoShowRoute = defineRoute({
  name: 'qc.bookings.no_show',
  method: 'POST',
  path: '/properties/:property/bookings/:booking/no_show',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Record a no-show',
  tags: ['bookings'],
  description: 'Idempotent: a repeat is a no-op.',
  params: BookingParams,
  body: EmptyBody,
  response: okSchema(BookingSchema),
  errors: ['errors.not_found'],
  pathRecord: pathBookingOnProperty,
  async handle({ deps }, found) {
    const { booking, rooms, snapshot } = await recordNoShow(deps, found);
    return ok(bookingView(booking, rooms, snapshot));
  },
});
