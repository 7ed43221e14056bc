import type { Static } from 'elysia';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { type PropertyRow, resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { assignRoom, BookingRefused, createBooking, type NewBooking } from './intake.ts';
import { BookingIdParams, CreateB2bBookingBody, CreateBookingBody, RoomAssignmentBody } from './model.ts';
import { bookingInScope } from './partner-lookup.ts';
import { bookingRooms } from './snapshot.ts';
import { bookingView } from './view.ts';

const CREATE_DESCRIPTION =
  'Partner-originated booking, checked against the calendar like a sale: every night needs free rooms, no stop-sell, ' +
  'closed-to-arrival/departure or length-of-stay restriction may forbid it, and the property must be live. A refusal is 422 ' +
  'errors.qc.booking_create_failed with a `reason` (never cached under Idempotency-Key). 201 with the booking; a `reference` ' +
  'you already used on this property and channel answers 200 with the booking it made, creating nothing.';

type BookingBody = Static<typeof CreateBookingBody> | Static<typeof CreateB2bBookingBody>;

/** Partner-originated creation (POST /bookings, POST /b2b/bookings) and room assignment (spec 4.5). */
export function registerBookingCreation(app: QcApp, deps: Deps) {
  const create = async (
    principal: Principal,
    body: BookingBody,
    channel: string,
    set: { status?: number | string },
  ) => {
    const property = await propertyOrRefuse(deps, principal, body.property_id);
    const result = await createBooking(deps, bookingInput(property, body, channel), {
      checkAvailability: true,
      requireLive: true,
    });
    set.status = result.changed ? 201 : 200;
    return ok(bookingView(result.booking, await bookingRooms(deps.db, result.booking.id)));
  };
  app.post(
    routes.bookingsCreate.path,
    ({ principal, body, set }) => create(principal, body, body.source_channel, set),
    {
      qc: routes.bookingsCreate,
      body: CreateBookingBody,
      detail: { summary: routes.bookingsCreate.summary, description: CREATE_DESCRIPTION, tags: ['bookings'] },
    },
  );
  app.post(routes.b2bBookingsCreate.path, ({ principal, body, set }) => create(principal, body, 'QDA', set), {
    qc: routes.b2bBookingsCreate,
    body: CreateB2bBookingBody,
    detail: {
      summary: routes.b2bBookingsCreate.summary,
      description: `Agency booking: source channel QDA, with the agency in the snapshot. ${CREATE_DESCRIPTION}`,
      tags: ['bookings'],
    },
  });
  app.post(
    routes.bookingsRoomAssignment.path,
    async ({ principal, params, body }) => {
      const booking = await bookingInScope(deps.db, principal, params.booking);
      await assignRoom(deps, booking, {
        bookingItemId: body.booking_item_id,
        roomNumber: body.room_number,
        selfCheckinCode: body.self_checkin_code,
      });
      const rooms = await bookingRooms(deps.db, booking.id);
      return ok(bookingView(booking, rooms));
    },
    {
      qc: routes.bookingsRoomAssignment,
      params: BookingIdParams,
      body: RoomAssignmentBody,
      detail: {
        summary: routes.bookingsRoomAssignment.summary,
        description:
          'Stores the room number and self-check-in code on a room line and emits booking.assigned; no revision.',
        tags: ['bookings'],
      },
    },
  );
}

/** A body property the token may not act on is a refused creation, like a body naming an unknown room. */
async function propertyOrRefuse(deps: Deps, principal: Principal, segment: string): Promise<PropertyRow> {
  try {
    return await resolveProperty(deps.db, principal, segment);
  } catch {
    throw new BookingRefused('unknown_property');
  }
}

function bookingInput(property: PropertyRow, body: BookingBody, channel: string): NewBooking {
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
    rooms: body.rooms.map((r) => ({
      roomTypeId: r.room_type_id,
      ratePlanId: r.rate_plan_id,
      qty: r.qty,
      adults: r.adults,
      children: r.children,
      price: r.price,
    })),
    totalPrice: body.total_price.amount,
    currency: body.total_price.currency,
    tentative: body.tentative,
    internalComment: body.comment,
    agency: 'agency' in body ? body.agency : null,
  };
}
