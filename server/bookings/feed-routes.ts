import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { fieldError, notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { routes } from '../core/routes/route-table.ts';
import { ackBookingRevisions, ackRevision, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, feedPage } from './feed.ts';
import { BookingAckBody, BookingIdParams, RevisionParams } from './model.ts';
import { bookingInScope } from './partner-lookup.ts';

const FeedQuery = t.Object({
  since: t.Optional(
    t.String({
      pattern: '^\\d{1,18}$',
      description: 'Resume after this revision id; 0 re-delivers everything unacked',
    }),
  ),
  limit: t.Optional(
    t.String({
      pattern: '^\\d{1,9}$',
      description: `Page size, default ${FEED_DEFAULT_LIMIT}, clamped to ${FEED_MAX_LIMIT}`,
    }),
  ),
});

/** Feed limit: default 100, clamped to [1, 500]. */
export function feedLimit(raw: string | undefined): number {
  return Math.min(Math.max(raw === undefined ? FEED_DEFAULT_LIMIT : Number(raw), 1), FEED_MAX_LIMIT);
}

/** The revision feed and its acknowledgements (spec 4.5). */
export function registerBookingFeed(app: QcApp, deps: Deps) {
  app.get(
    routes.revisionsFeed.path,
    async ({ principal, query }) =>
      ok(
        await feedPage(deps.db, {
          consumerId: principal.clientPk,
          propertyIds: [...principal.propertyIds],
          since: Number(query.since ?? 0),
          limit: feedLimit(query.limit),
        }),
      ),
    {
      qc: routes.revisionsFeed,
      query: FeedQuery,
      detail: {
        summary: routes.revisionsFeed.summary,
        description:
          'Revisions of the properties this token may act on that this consumer has not acked, ascending id. ' +
          'Pass next_cursor as since to continue; poll from since=0 after a restart to get every unacked revision again. ' +
          `limit defaults to ${FEED_DEFAULT_LIMIT} and is clamped to ${FEED_MAX_LIMIT}.`,
        tags: ['bookings'],
      },
    },
  );
  app.post(
    routes.revisionsAck.path,
    async ({ principal, params }) => {
      if (!/^\d{1,18}$/.test(params.revision)) throw notFound();
      return ok(
        await ackRevision(
          deps.db,
          principal.clientPk,
          principal.propertyIds,
          Number(params.revision),
          deps.clock.now(),
        ),
      );
    },
    {
      qc: routes.revisionsAck,
      params: RevisionParams,
      detail: {
        summary: routes.revisionsAck.summary,
        description: 'Idempotent per consumer; other consumers are unaffected.',
        tags: ['bookings'],
      },
    },
  );
  app.post(
    routes.bookingsAck.path,
    async ({ principal, params, body }) => {
      const booking = await bookingInScope(deps.db, principal, params.booking);
      const upTo = body?.revision_id;
      if (upTo !== undefined && !Number.isSafeInteger(upTo))
        throw fieldError(routes.bookingsAck.resource, 'revision_id', 'integer');
      const acked = await ackBookingRevisions(deps.db, principal.clientPk, booking, upTo, deps.clock.now());
      return ok({ booking_id: booking.external_booking_id, inbound_booking_id: booking.id, ...acked });
    },
    {
      qc: routes.bookingsAck,
      params: BookingIdParams,
      body: BookingAckBody,
      detail: {
        summary: routes.bookingsAck.summary,
        description:
          'Migration form of the revision ack: acknowledges for this consumer every revision of the booking that exists now, ' +
          'or only those up to body.revision_id (send the id you saved, so a revision appended meanwhile is not acked unseen).',
        tags: ['bookings'],
      },
    },
  );
}
