import type { Static } from 'elysia';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { findProperty, type PropertyRow } from '../core/resolve.ts';
import { BookingRefused, createBooking, type NewBooking } from './intake.ts';
import { lineInputOf } from './lines.ts';
import type { CreateB2bBookingBody, CreateBookingBody } from './model.ts';
import { bookingRooms } from './snapshot.ts';

export type PartnerBookingBody = Static<typeof CreateBookingBody> | Static<typeof CreateB2bBookingBody>;

/**
 * Partner-originated creation (POST /bookings, POST /b2b/bookings): checked against the calendar like a sale
 * and refused on a shadow property. A `reference` already used on the property and channel answers the
 * booking it made (`changed` false).
 */
export async function createPartnerBooking(
  deps: Deps,
  principal: Principal,
  body: PartnerBookingBody,
  channel: string,
) {
  // A body property the token may not act on is a refused creation, like a body naming an unknown room. A
  // failed lookup (the database down) is not "unknown": it propagates as the failure it is.
  const property = await findProperty(deps.db, principal, body.property_id);
  if (!property) throw new BookingRefused('unknown_property');
  const { booking, changed } = await createBooking(deps, bookingInput(property, body, channel), {
    checkAvailability: true,
    requireLive: true,
  });
  return { booking, changed, rooms: await bookingRooms(deps.db, booking.id) };
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
