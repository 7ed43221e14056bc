import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { bookingOf, opsView } from './booking-input.ts';
import { IdParams } from './operator-params.ts';

export const showBookingOp = defineOperatorRoute({
  name: 'ops.bookings.show',
  surface: 'ops',
  method: 'GET',
  path: '/bookings/:id',
  summary: 'A booking in clear, with its rooms and revision ids',
  params: IdParams,
  async handle({ deps, params }) {
    return ok(await opsView(deps, await bookingOf(deps, params.id)));
  },
});
