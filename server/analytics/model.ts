import { t } from 'elysia';
import { Day, dayOf } from '../core/http/day-schema.ts';

export const REPORTS = ['overview', 'traffic', 'funnel', 'campaigns', 'bookings', 'pace'] as const;
export type ReportKind = (typeof REPORTS)[number];

export const RangeQuery = t.Object({
  from: dayOf('first day, YYYY-MM-DD'),
  to: dayOf('last day (inclusive); at most 366 days after from'),
});

const Money = t.Number({ description: "amount in the property's currency" });
const Rate = (description: string) =>
  t.Nullable(t.Number({ description: `${description}; null when undefined (0/0)` }));
/**
 * A figure only an analytics upstream holds (visits, searches, clicks, spend): its number passes through, the
 * built-in provider answers null.
 */
const upstreamOnly = (what: string) => `${what}: the upstream analytics' figure; null from the built-in provider`;
const UpstreamCount = (what: string) => t.Nullable(t.Integer({ minimum: 0 }), { description: upstreamOnly(what) });

/**
 * The six reports. Both providers answer these shapes (an upstream answering another shape is a 502).
 * Stay figures count nights in the range of bookings that are tentative, confirmed, checked in or checked
 * out; booking figures count bookings received in the range (the property's local day).
 */
export const ReportSchemas = {
  overview: t.Object({
    currency: t.String(),
    room_nights_available: t.Integer({ description: 'units of the live room types times nights in the range' }),
    room_nights_sold: t.Integer({ description: 'booked units times their nights inside the range' }),
    occupancy: Rate('room_nights_sold / room_nights_available, 0..1'),
    room_revenue: Money,
    adr: Rate('average daily rate: room_revenue / room_nights_sold'),
    revpar: Rate('revenue per available room night: room_revenue / room_nights_available'),
    bookings_received: t.Integer({ description: 'bookings received in the range, any status' }),
    cancellations: t.Integer({ description: 'bookings cancelled in the range' }),
    other_currency_bookings: t.Integer({ description: 'bookings in another currency, left out of revenue' }),
  }),
  bookings: t.Object({
    currency: t.String(),
    total: t.Object({ bookings: t.Integer(), room_nights: t.Integer(), revenue: Money }),
    by_channel: t.Array(
      t.Object({ source_channel: t.String(), bookings: t.Integer(), room_nights: t.Integer(), revenue: Money }),
    ),
    by_status: t.Array(t.Object({ status: t.String(), bookings: t.Integer(), revenue: Money })),
  }),
  traffic: t.Object({
    sessions: UpstreamCount('visits'),
    sources: t.Array(
      t.Object({
        source: t.Union(
          ['direct', 'metasearch', 'agency', 'ota'].map((s) => t.Literal(s)),
          {
            description: 'direct: booking engine and dashboard; metasearch: the search-advertising channel',
          },
        ),
        channels: t.Array(t.String()),
        bookings: t.Integer(),
        share: Rate('share of the bookings received in the range'),
        revenue: Money,
      }),
    ),
  }),
  funnel: t.Object({
    searches: UpstreamCount('booking-engine searches'),
    created: t.Integer({ description: 'bookings received in the range' }),
    confirmed: t.Integer({ description: 'of those, confirmed or later (checked in, checked out)' }),
    stayed: t.Integer({ description: 'of those, checked out, or confirmed with the check-out day passed' }),
    cancelled: t.Integer(),
    no_show: t.Integer(),
    confirmation_rate: Rate('confirmed / created'),
    cancellation_rate: Rate('cancelled / created'),
  }),
  campaigns: t.Object({
    campaigns: t.Array(
      t.Object({
        campaign: t.String({ description: 'search_ads (the GHA channel) or agency:<agency name>' }),
        bookings: t.Integer(),
        room_nights: t.Integer(),
        revenue: Money,
        clicks: UpstreamCount('clicks'),
        cost: t.Nullable(t.Number({ minimum: 0 }), { description: upstreamOnly('spend') }),
      }),
    ),
  }),
  pace: t.Object({
    as_of: t.String({ format: 'date-time', description: 'now; last year compares with this instant minus one year' }),
    days: t.Array(
      t.Object({
        date: Day,
        room_nights: t.Integer({ description: 'on the books now for this stay date' }),
        revenue: Money,
        last_year_date: Day,
        last_year_room_nights: t.Integer({
          description: 'on the books for the same date last year, at as_of minus a year',
        }),
        last_year_revenue: Money,
      }),
    ),
  }),
} as const;

export type Report<K extends ReportKind> = (typeof ReportSchemas)[K]['static'];

export const reportEnvelope = (kind: ReportKind) =>
  t.Object({
    property_id: t.String({ format: 'uuid' }),
    report: t.Literal(kind),
    from: Day,
    to: Day,
    source: t.Union([t.Literal('builtin'), t.Literal('upstream')]),
    generated_at: t.String({ format: 'date-time' }),
    data: ReportSchemas[kind],
  });
