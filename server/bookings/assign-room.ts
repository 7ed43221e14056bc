import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { assignRoom } from './lifecycle.ts';
import { BookingIdParams, BookingSchema, RoomAssignmentBody } from './model.ts';
import { pathBooking } from './path-booking.ts';
import { bookingView } from './view.ts';

export const assignRoomRoute = defineRoute({
  name: 'qc.bookings.room_assignment',
  method: 'POST',
  path: '/bookings/:booking/room-assignment',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'booking',
  summary: 'Room number and self-check-in code',
  tags: ['bookings'],
  description: 'Stores the room number and self-check-in code on a room line and emits booking.assigned; no revision.',
  params: BookingIdParams,
  body: RoomAssignmentBody,
  response: okSchema(BookingSchema),
  errors: ['errors.not_found'],
  pathRecord: pathBooking,
  async handle({ deps, body }, found) {
    const { booking, rooms } = await assignRoom(deps, found, {
      bookingItemId: body.booking_item_id,
      roomNumber: body.room_number,
      selfCheckinCode: body.self_checkin_code,
    });
    return ok(bookingView(booking, rooms));
  },
});
