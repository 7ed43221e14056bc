import type { Static } from 'elysia';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import { requestKey } from '../core/idempotency/idempotent-request.ts';
import { findProperty, type PropertyRow } from '../core/resolve.ts';
import { Answer } from '../core/routes/route.ts';
import { BookingRefused, createBooking, type NewBooking } from './intake.ts';
import { lineInputOf } from './lines.ts';
import type { CreateB2bBookingBody, CreateBookingBody } from './model.ts';
import { bookingRooms } from './snapshot.ts';
import { bookingView } from './view.ts';

export type PartnerBookingBody = Static<typeof CreateBookingBody> | Static<typeof CreateB2bBookingBody>;

/**
 * Partner-originated creation (POST /bookings, POST /b2b/bookings): checked against the calendar like a sale
 * and refused on a shadow property. 201 with the booking; a `reference` already used on the property and
 * channel answers 200 with the booking it made.
 *
 * The request's Idempotency-Key is kept with the booking, in its transaction (intake-keys.ts), besides the
 * request-level store: the store gives the key back on a 5xx, and when the connection died during COMMIT
 * (503 errors.qc.write_outcome_unknown) the booking may exist; the retry then finds it here and answers it as
 * the first call would have, 201, marked replayed, instead of booking twice.
 */
export async function createPartnerBooking(
  deps: Deps,
  principal: Principal,
  request: Request,
  body: PartnerBookingBody,
  channel: string,
): Promise<Answer> {
  // A body property the token may not act on is a refused creation, like a body naming an unknown room. A
  // failed lookup (the database down) is not "unknown": it propagates as the failure it is.
  const property = await findProperty(deps.db, principal, body.property_id);
  if (!property) throw new BookingRefused('unknown_property');
  const key = requestKey(request);
  const { booking, changed, keptAt } = await createBooking(deps, bookingInput(property, body, channel), {
    checkAvailability: true,
    requireLive: true,
    intakeKey: key && { origin: 'partner', key: key.scope, fingerprint: key.fingerprint },
  });
  const view = ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
  if (keptAt) {
    return new Answer(201, view, {
      'idempotency-replayed': 'true',
      'idempotency-original-timestamp': keptAt.toISOString(),
    });
  }
  return new Answer(changed ? 201 : 200, view);
}

function bookingInput(property: PropertyRow, body: PartnerBookingBody, channel: string): NewBooking {
  return {
    propertyId: property.id,
    channel,
    channelReference: body.reference,
    guest: {
      firstName: body.guest.first_name,
      lastName: body.guest.last_name,
      email: body.guest.email,
      phone: body.guest.phone,
    },
    checkinDate: body.checkin_date,
    checkoutDate: body.checkout_date,
    rooms: body.rooms.map(lineInputOf),
    totalPrice: body.total_price.amount,
    currency: body.total_price.currency,
    tentative: body.tentative,
    internalComment: body.comment,
    agency: 'agency' in body ? body.agency : null,
  };
}
