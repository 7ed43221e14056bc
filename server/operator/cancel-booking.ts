import { t } from 'elysia';
import { cancelBooking } from '../bookings/intake.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { bookingOf, opsView } from './booking-input.ts';
import { IdParams } from './operator-params.ts';

export const cancelBookingOp = defineOperatorRoute({
  name: 'ops.bookings.cancel',
  surface: 'ops',
  method: 'POST',
  path: '/bookings/:id/cancel',
  summary: 'Cancel a booking (it gives its rooms back)',
  params: IdParams,
  body: t.Object({
    cancelled_by: t.Union([t.Literal('guest'), t.Literal('hotelier'), t.Literal('ota'), t.Literal('system')]),
    reason_code: t.String({ minLength: 1 }),
    fee_charged: t.Optional(t.Number({ minimum: 0 })),
  }),
  async handle({ deps, params, body }) {
    const result = await cancelBooking(deps, await bookingOf(deps, params.id), {
      cancelledBy: body.cancelled_by,
      reasonCode: body.reason_code,
      feeCharged: body.fee_charged,
    });
    return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
  },
});
