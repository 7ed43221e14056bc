import { createBooking } from '../bookings/intake.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { Answer } from '../core/routes/route.ts';
import { propertyIdOf } from '../properties/insert-property.ts';
import { intakeKeyOf, OpsBooking, opsInput, opsView } from './booking-input.ts';

/**
 * POST /ops/bookings: the platform's own channels taking a booking. No availability check: these channels
 * already sold the rooms.
 */
export const takeBookingOp = defineOperatorRoute({
  name: 'ops.bookings.create',
  // Kept with the booking in its transaction (server/bookings/intake-keys.ts), so it survives a lost COMMIT.
  ownIdempotencyKey: true,
  surface: 'ops',
  method: 'POST',
  path: '/bookings',
  summary: 'Take a booking on a platform channel',
  description:
    'With an `Idempotency-Key` header (1 to 128 characters) the key is kept with the booking, in its ' +
    'transaction: the same key and body again answers the booking it made (`Idempotency-Replayed: true`) ' +
    'and creates nothing, even after a 503 `errors.qc.write_outcome_unknown`; another body under the key ' +
    'is 409 `errors.qc.idempotency_conflict`.',
  body: OpsBooking,
  async handle({ deps, body, request }) {
    const propertyId = await propertyIdOf(deps, body.property_id);
    const intakeKey = intakeKeyOf(request.headers.get('idempotency-key'), body);
    const result = await createBooking(deps, opsInput(propertyId, body), { intakeKey });
    const view = await opsView(deps, result.booking);
    // A replay names the revision the booking was created with.
    const revisionId = result.revisionId ?? view.revisions.find((r) => r.revision_type === 'created')?.id ?? null;
    const replayed = intakeKey !== undefined && !result.changed;
    return new Answer(
      200,
      ok({ ...view, revision_id: revisionId }),
      replayed ? { 'idempotency-replayed': 'true' } : {},
    );
  },
});
