import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { cancelBooking } from './lifecycle.ts';
import { BookingParams, BookingSchema, PartnerCancelBody } from './model.ts';
import { pathBookingOnProperty } from './path-booking.ts';
import { bookingView } from './view.ts';

export const cancelBookingRoute = defineRoute({
  name: 'qc.bookings.cancel',
  method: 'POST',
  path: '/properties/:property/bookings/:booking/cancel',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Cancel a booking',
  tags: ['bookings'],
  description:
    'Idempotent: a cancelled booking stays as it is. Optional body: reason_code (default partner_request), fee_charged (default: what the cancellation policy in effect when the booking was made charges today, see Cancellation policies in the README).',
  params: BookingParams,
  body: PartnerCancelBody,
  response: okSchema(BookingSchema),
  errors: ['errors.not_found'],
  pathRecord: pathBookingOnProperty,
  async handle({ deps, body }, found) {
    const { booking, rooms, snapshot } = await cancelBooking(deps, found, {
      cancelledBy: 'hotelier',
      reasonCode: body?.reason_code ?? 'partner_request',
      feeCharged: body?.fee_charged,
    });
    return ok(bookingView(booking, rooms, snapshot));
  },
});
