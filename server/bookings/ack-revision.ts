import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ackRevision } from './feed.ts';
import { feedAccount } from './feed-account.ts';
import { RevisionParams } from './model.ts';
import { pathRevision } from './path-revision.ts';

export const ackRevisionRoute = defineRoute({
  name: 'qc.booking_revisions.ack',
  method: 'POST',
  path: '/booking_revisions/:revision/ack',
  scope: 'bookings.read',
  bucket: 'booking-actions',
  resource: 'booking_revision',
  summary: 'Acknowledge a revision for this consumer',
  tags: ['bookings'],
  description: 'Idempotent per consumer; other consumers are unaffected.',
  params: RevisionParams,
  body: EmptyBody,
  response: okSchema(
    t.Object({ revision_id: t.Integer(), acked: t.Literal(true), acked_at: t.String({ format: 'date-time' }) }),
  ),
  errors: ['errors.not_found'],
  pathRecord: pathRevision,
  async handle({ deps, principal }, revision) {
    return ok(await ackRevision(deps.db, principal.clientPk, revision, deps.clock.now(), feedAccount(principal)));
  },
});
