import { t } from 'elysia';
import { type SeedBooking, seedBookings } from '../bookings/intake.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { propertyIdOf } from '../properties/insert-property.ts';
import { OpsBooking, opsInput, Status } from './booking-input.ts';

export const seedBookingsOp = defineOperatorRoute({
  name: 'ops.bookings.seed',
  surface: 'ops',
  method: 'POST',
  path: '/bookings/seed',
  summary: 'Import existing bookings silently (no revisions, no events) when a property is first connected',
  body: t.Object({
    property_id: t.String(),
    bookings: t.Array(t.Composite([t.Omit(OpsBooking, ['property_id']), t.Object({ status: t.Optional(Status) })])),
  }),
  async handle({ deps, body }) {
    const propertyId = await propertyIdOf(deps, body.property_id);
    const inputs: SeedBooking[] = body.bookings.map((b) => ({
      ...opsInput(propertyId, { ...b, property_id: body.property_id }),
      status: b.status,
    }));
    const rows = await seedBookings(deps, propertyId, inputs);
    return ok({ seeded: rows.length, booking_ids: rows.map((r) => r.id) });
  },
});
