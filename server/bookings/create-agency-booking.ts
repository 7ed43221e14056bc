import { okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CREATE_DESCRIPTION, REFERENCE_REUSED } from './create-booking.ts';
import { BookingSchema, CreateB2bBookingBody } from './model.ts';
import { createPartnerBooking } from './partner-booking.ts';

export const createAgencyBooking = defineRoute({
  name: 'qc.agency_bookings.create',
  method: 'POST',
  path: '/b2b/bookings',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Partner-originated B2B booking',
  tags: ['bookings'],
  description: `Agency booking: source channel QDA, with the agency in the snapshot. ${CREATE_DESCRIPTION}`,
  body: CreateB2bBookingBody,
  status: 201,
  alsoAnswers: REFERENCE_REUSED,
  response: okSchema(BookingSchema),
  errors: ['errors.qc.booking_create_failed'],
  handle: ({ deps, principal, request, body }) => createPartnerBooking(deps, principal, request, body, 'QDA'),
});
