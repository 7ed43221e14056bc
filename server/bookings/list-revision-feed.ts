import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, feedCursor, feedPage } from './feed.ts';
import { FeedPageSchema } from './model.ts';

// Plain strings: a malformed value is dropped to its default (feedCursor), never a 422, like the bookings list.
const FeedQuery = t.Object({
  since: t.Optional(
    t.String({
      description: 'Resume after this revision id; 0 (also a malformed value) re-delivers everything unacked',
    }),
  ),
  limit: t.Optional(
    t.String({
      description: `Page size, default ${FEED_DEFAULT_LIMIT} (also for a malformed value), clamped to ${FEED_MAX_LIMIT}`,
    }),
  ),
});

export const listRevisionFeed = defineRoute({
  name: 'qc.booking_revisions.feed',
  method: 'GET',
  path: '/booking_revisions/feed',
  scope: 'bookings.read',
  bucket: 'reads',
  queryReading: 'lenient',
  resource: 'booking_revision',
  summary: 'Unacknowledged booking revisions, ascending',
  tags: ['bookings'],
  description:
    'Revisions of the properties this token may act on that this consumer has not acked, ascending id. ' +
    'Pass next_cursor as since to continue; poll from since=0 after a restart to get every unacked revision again. ' +
    `limit defaults to ${FEED_DEFAULT_LIMIT} and is clamped to ${FEED_MAX_LIMIT}. Malformed values are dropped to ` +
    'these defaults, not rejected: the rule of the bookings list filters.',
  query: FeedQuery,
  response: okSchema(FeedPageSchema),
  async handle({ deps, principal, query }) {
    return ok(
      await feedPage(deps.db, {
        consumerId: principal.clientPk,
        propertyIds: principal.propertyIds,
        ...feedCursor(query.since, query.limit),
        account: principal.accountScoped ? { customerId: principal.customerId } : undefined,
      }),
    );
  },
});
