import type { Deps } from '../core/deps.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { feedHealth, feedPage } from './feed.ts';
import { feedLimit } from './feed-routes.ts';
import { cancelBooking, recordNoShow } from './intake.ts';
import { listBookings, parseFilters } from './list.ts';
import { BookingParams, PartnerCancelBody, PropertyParams } from './model.ts';
import { bookingOnProperty } from './partner-lookup.ts';
import { bookingRooms } from './snapshot.ts';
import { bookingView, bookingViews } from './view.ts';

const LIST_DESCRIPTION =
  'Newest first. Filters (malformed values are dropped, not rejected): page, limit (default 50, clamped to 100), ' +
  'checkin_from/_to, checkout_from/_to (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, inclusive), inserted_from/_to (received time, ' +
  'property-local), booking_status or booking_status[] (created, confirmed, cancelled, no_show), source_channel, guest_name, booking_id. ' +
  'With revisions=1 this is the property-scoped revision feed: since, limit and the answer of GET /booking_revisions/feed.';

/** A property's bookings (spec 4.5): list (and its revisions=1 feed form), health, show, cancel, no-show. */
export function registerPropertyBookings(app: QcApp, deps: Deps) {
  app.get(
    routes.bookingsList.path,
    async ({ principal, params, request }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const search = new URL(request.url).searchParams;
      if (search.get('revisions') === '1') {
        const since = /^\d{1,18}$/.test(search.get('since') ?? '') ? Number(search.get('since')) : 0;
        const limit = feedLimit(
          /^\d{1,9}$/.test(search.get('limit') ?? '') ? (search.get('limit') as string) : undefined,
        );
        return ok(
          await feedPage(deps.db, { consumerId: principal.clientPk, propertyIds: [property.id], since, limit }),
        );
      }
      const filters = parseFilters(search);
      const { rows, total } = await listBookings(deps.db, property.id, property.timezone, filters);
      return ok({ bookings: await bookingViews(deps.db, rows), meta: pageMeta(total, filters.page, filters.limit) });
    },
    {
      qc: routes.bookingsList,
      params: PropertyParams,
      detail: { summary: routes.bookingsList.summary, description: LIST_DESCRIPTION, tags: ['bookings'] },
    },
  );
  app.get(
    routes.bookingsHealth.path,
    async ({ principal, params }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      return ok(await feedHealth(deps.db, principal.clientPk, property.id, deps.clock.now()));
    },
    {
      qc: routes.bookingsHealth,
      params: PropertyParams,
      detail: {
        summary: routes.bookingsHealth.summary,
        description:
          'For this consumer: green when no revision is pending and the ack lag (age of the oldest unacked revision) is under 60 s.',
        tags: ['bookings'],
      },
    },
  );
  app.get(
    routes.bookingsShow.path,
    async ({ principal, params }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const booking = await bookingOnProperty(deps.db, property.id, params.booking);
      return ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
    },
    {
      qc: routes.bookingsShow,
      params: BookingParams,
      detail: { summary: routes.bookingsShow.summary, tags: ['bookings'] },
    },
  );
  app.post(
    routes.bookingsCancel.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const found = await bookingOnProperty(deps.db, property.id, params.booking);
      const { booking } = await cancelBooking(deps, found, {
        cancelledBy: 'hotelier',
        reasonCode: body?.reason_code ?? 'partner_request',
        feeCharged: body?.fee_charged,
      });
      return ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
    },
    {
      qc: routes.bookingsCancel,
      params: BookingParams,
      body: PartnerCancelBody,
      detail: {
        summary: routes.bookingsCancel.summary,
        description:
          'Idempotent: a cancelled booking stays as it is. Optional body: reason_code (default partner_request), fee_charged (default: what the cancellation policy in effect when the booking was made charges today, see Cancellation policies in the README).',
        tags: ['bookings'],
      },
    },
  );
  app.post(
    routes.bookingsNoShow.path,
    async ({ principal, params }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const { booking } = await recordNoShow(deps, await bookingOnProperty(deps.db, property.id, params.booking));
      return ok(bookingView(booking, await bookingRooms(deps.db, booking.id)));
    },
    {
      qc: routes.bookingsNoShow,
      params: BookingParams,
      detail: {
        summary: routes.bookingsNoShow.summary,
        description: 'Idempotent: a repeat is a no-op.',
        tags: ['bookings'],
      },
    },
  );
}
