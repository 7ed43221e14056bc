import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ackBookingRevisions } from './feed.ts';
import { feedAccount } from './feed-account.ts';
import { BookingAckBody, BookingIdParams } from './model.ts';
import { pathBooking } from './path-booking.ts';

export const ackBooking = defineRoute({
  name: 'qc.bookings.ack',
  method: 'POST',
  path: '/bookings/:booking/ack',
  scope: 'bookings.read',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Acknowledge every revision of a booking (migration form)',
  tags: ['bookings'],
  description:
    'Migration form of the revision ack: acknowledges for this consumer every revision of the booking that exists now, ' +
    'or only those up to body.revision_id (send the id you saved, so a revision appended meanwhile is not acked unseen).',
  params: BookingIdParams,
  body: BookingAckBody,
  response: okSchema(
    t.Object({
      booking_id: t.String(),
      inbound_booking_id: t.Integer(),
      acked_now: t.Integer(),
      acked_revision_ids: t.Array(t.Integer()),
    }),
  ),
  errors: ['errors.not_found'],
  pathRecord: pathBooking,
  async handle({ deps, principal, body }, booking) {
    const acked = await ackBookingRevisions(
      deps.db,
      principal.clientPk,
      booking,
      body?.revision_id,
      deps.clock.now(),
      feedAccount(principal),
    );
    return ok({ booking_id: booking.external_booking_id, inbound_booking_id: booking.id, ...acked });
  },
});
