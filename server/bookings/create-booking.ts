import { okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { BookingSchema, CreateBookingBody } from './model.ts';
import { createPartnerBooking } from './partner-booking.ts';

export const CREATE_DESCRIPTION =
  'Partner-originated booking, checked against the calendar like a sale: every night needs free rooms, no stop-sell, ' +
  'closed-to-arrival/departure or length-of-stay restriction may forbid it, and the property must be live. A refusal is 422 ' +
  'errors.qc.booking_create_failed with a `reason` (never cached under Idempotency-Key). 201 with the booking; a `reference` ' +
  'you already used on this property and channel answers 200 with the booking it made, creating nothing. The ' +
  'Idempotency-Key is kept with the booking, in its transaction: the same key and body again answers that booking (201, ' +
  'Idempotency-Replayed: true), also after a 503 errors.qc.write_outcome_unknown whose booking had committed.';

/** The second success answer of both creation routes (partner-booking.ts). */
export const REFERENCE_REUSED = {
  200: 'A `reference` you already used on this property and channel: the booking it made. Nothing was created.',
};

export const createBookingRoute = defineRoute({
  name: 'qc.bookings.create',
  method: 'POST',
  path: '/bookings',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Partner-originated booking',
  tags: ['bookings'],
  description: CREATE_DESCRIPTION,
  body: CreateBookingBody,
  status: 201,
  alsoAnswers: REFERENCE_REUSED,
  response: okSchema(BookingSchema),
  errors: ['errors.qc.booking_create_failed'],
  handle: ({ deps, principal, request, body }) =>
    createPartnerBooking(deps, principal, request, body, body.source_channel),
});
