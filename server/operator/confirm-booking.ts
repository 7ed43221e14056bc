import { confirmBooking } from '../bookings/intake.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { bookingOf, opsView } from './booking-input.ts';
import { IdParams } from './operator-params.ts';

export const confirmBookingOp = defineOperatorRoute({
  name: 'ops.bookings.confirm',
  surface: 'ops',
  method: 'POST',
  path: '/bookings/:id/confirm',
  summary: 'Confirm a requested or tentative booking',
  params: IdParams,
  async handle({ deps, params }) {
    const result = await confirmBooking(deps, await bookingOf(deps, params.id));
    return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
  },
});
