import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { feedHealth } from './feed.ts';
import { PropertyParams } from './model.ts';

export const showBookingHealth = defineRoute({
  name: 'qc.bookings.health',
  method: 'GET',
  path: '/properties/:property/bookings/health',
  scope: 'bookings.read',
  bucket: 'reads',
  resource: 'booking',
  summary: 'Feed health for this consumer',
  tags: ['bookings'],
  description:
    'For this consumer: green when no revision is pending and the ack lag (age of the oldest unacked revision) is under 60 s.',
  params: PropertyParams,
  response: okSchema(
    t.Object({
      last_revision_at: t.Nullable(t.String({ format: 'date-time' })),
      pending_revisions_count: t.Integer(),
      ack_lag_seconds: t.Integer(),
      status: t.Union([t.Literal('green'), t.Literal('yellow')]),
    }),
  ),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, principal }, property) => {
    return ok(await feedHealth(deps.db, principal.clientPk, property.id, deps.clock.now()));
  }),
});
