import { recordNoShow } from '../bookings/intake.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { bookingOf, opsView } from './booking-input.ts';
import { IdParams } from './operator-params.ts';

export const recordNoShowOp = defineOperatorRoute({
  name: 'ops.bookings.no_show',
  surface: 'ops',
  method: 'POST',
  path: '/bookings/:id/no-show',
  summary: 'Record a no-show (the booking gives its rooms back)',
  params: IdParams,
  async handle({ deps, params }) {
    const result = await recordNoShow(deps, await bookingOf(deps, params.id));
    return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
  },
});
