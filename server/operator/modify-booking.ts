import { t } from 'elysia';
import { modifyBooking } from '../bookings/intake.ts';
import { lineInputOf } from '../bookings/lines.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { bookingOf, OpsGuest, OpsRoomLine, opsView } from './booking-input.ts';
import { IdParams } from './operator-params.ts';

export const modifyBookingOp = defineOperatorRoute({
  name: 'ops.bookings.update',
  surface: 'ops',
  method: 'PATCH',
  path: '/bookings/:id',
  summary: 'Modify a booking (dates, guests, rooms, price, contact: revision; comment alone: none)',
  params: IdParams,
  body: t.Partial(
    t.Object({
      checkin_date: t.String(),
      checkout_date: t.String(),
      guest: OpsGuest,
      adults: t.Integer({ minimum: 0 }),
      children: t.Integer({ minimum: 0 }),
      rooms: t.Array(OpsRoomLine, { minItems: 1 }),
      total_price: t.Object({ amount: t.Number({ minimum: 0 }) }),
      comment: t.Nullable(t.String()),
    }),
  ),
  async handle({ deps, params, body }) {
    const result = await modifyBooking(deps, await bookingOf(deps, params.id), {
      checkinDate: body.checkin_date,
      checkoutDate: body.checkout_date,
      guest: body.guest && {
        firstName: body.guest.first_name,
        lastName: body.guest.last_name,
        email: body.guest.email,
        phone: body.guest.phone,
      },
      adults: body.adults,
      children: body.children,
      rooms: body.rooms?.map(lineInputOf),
      totalPrice: body.total_price?.amount,
      internalComment: body.comment,
    });
    return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
  },
});
