import { t } from 'elysia';
import { MetaSchema, ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { propertyBookingsPage } from './list.ts';
import { BookingSchema, FeedPageSchema, PropertyParams } from './model.ts';

export const listBookingsRoute = defineRoute({
  name: 'qc.bookings.list',
  method: 'GET',
  path: '/properties/:property/bookings',
  scope: 'bookings.read',
  bucket: 'reads',
  queryReading: 'lenient',
  resource: 'booking',
  summary: 'Bookings of a property, newest first',
  tags: ['bookings'],
  description:
    'Newest first. Filters (malformed values are dropped, not rejected): page, per_page or limit (default 50, clamped to 100: the one list whose page size the interface sets), ' +
    'checkin_from/_to, checkout_from/_to (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, inclusive), inserted_from/_to (received time, ' +
    'property-local), booking_status or booking_status[] (created, confirmed, cancelled, no_show), source_channel, guest_name, booking_id. ' +
    'With revisions=1 this is the property-scoped revision feed: since, limit and the answer of GET /booking_revisions/feed.',
  params: PropertyParams,
  response: okSchema(t.Union([t.Object({ bookings: t.Array(BookingSchema), meta: MetaSchema }), FeedPageSchema])),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, principal, request }, property) => {
    const search = new URL(request.url).searchParams;
    // The list tolerates lag (the read replica when configured); the feed (revisions=1) reads acks and
    // positions its own acks just moved, so it stays on the primary.
    const db = search.get('revisions') === '1' ? deps.db : deps.reads.for(principal.clientPk);
    return ok(await propertyBookingsPage(db, principal.clientPk, property, search));
  }),
});
