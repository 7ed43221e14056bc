import type { Db } from '../core/db/db.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { Range } from './builtin-stays.ts';
import type { Report, ReportKind } from './model.ts';

interface Received {
  source_channel: string;
  status: string;
  agency: string | null;
  bookings: number;
  room_nights: number;
  revenue: number;
  stayed: number;
}

const money = (n: number) => Math.round(n * 100) / 100;
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);

/**
 * Bookings received in the range (the property's local day), grouped by channel, status and agency. The
 * four booking-side reports are views of this one read. Revenue is the booking total, in the property's
 * currency only; room nights are units times nights of the whole stay.
 */
async function receivedBookings(db: Db, property: PropertyRow, range: Range, now: Date): Promise<Received[]> {
  return db.sql<Received>`
    with received as (
      select b.*, (select coalesce(sum(br.qty * (br.checkout_date - br.checkin_date)), 0) from booking_rooms br
        where br.booking_id = b.id) as room_nights
      from bookings b
      where b.property_id = ${property.id}
        and (b.received_at at time zone ${property.timezone})::date between ${range.from}::date and ${range.to}::date
    )
    select source_channel, status, agency->>'name' as agency, count(*)::int as bookings,
      coalesce(sum(room_nights), 0)::int as room_nights,
      coalesce(sum(total_amount) filter (where currency_code = ${property.currency}), 0)::float8 as revenue,
      count(*) filter (where status = 'checked_out' or (status in ('confirmed', 'checked_in')
        and checkout_date <= (${now}::timestamptz at time zone ${property.timezone})::date))::int as stayed
    from received group by source_channel, status, agency->>'name' order by source_channel, status`;
}

function sumOf(rows: readonly Received[]) {
  return {
    bookings: rows.reduce((s, r) => s + r.bookings, 0),
    room_nights: rows.reduce((s, r) => s + r.room_nights, 0),
    revenue: money(rows.reduce((s, r) => s + r.revenue, 0)),
  };
}

/** Rows grouped by a key, groups in key order (so answers are stable whatever the read order). */
function groupBy(rows: readonly Received[], key: (r: Received) => string): [string, Received[]][] {
  const out = new Map<string, Received[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A booking-side report: a view of the bookings received in the range (one read, the same for all four). */
function fromReceived<K extends ReportKind>(view: (rows: readonly Received[], property: PropertyRow) => Report<K>) {
  return async (db: Db, property: PropertyRow, range: Range, now: Date): Promise<Report<K>> =>
    view(await receivedBookings(db, property, range, now), property);
}

export const bookingsReport = fromReceived<'bookings'>((rows, property) => ({
  currency: property.currency,
  total: sumOf(rows),
  by_channel: groupBy(rows, (r) => r.source_channel).map(([source_channel, g]) => ({
    source_channel,
    ...sumOf(g),
  })),
  by_status: groupBy(rows, (r) => r.status).map(([status, g]) => {
    const { bookings, revenue } = sumOf(g);
    return { status, bookings, revenue };
  }),
}));

const SOURCES = { QDO: 'direct', QDB: 'direct', GHA: 'metasearch', QDA: 'agency' } as const;

export const trafficReport = fromReceived<'traffic'>((rows) => {
  const total = sumOf(rows).bookings;
  const sourceOf = (r: Received) => SOURCES[r.source_channel as keyof typeof SOURCES] ?? 'ota';
  return {
    sessions: null,
    sources: groupBy(rows, sourceOf).map(([source, g]) => ({
      source: source as 'direct' | 'metasearch' | 'agency' | 'ota',
      channels: [...new Set(g.map((r) => r.source_channel))],
      bookings: sumOf(g).bookings,
      share: ratio(sumOf(g).bookings, total),
      revenue: sumOf(g).revenue,
    })),
  };
});

export const funnelReport = fromReceived<'funnel'>((rows) => {
  const count = (statuses: string[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((s, r) => s + r.bookings, 0);
  const created = sumOf(rows).bookings;
  const confirmed = count(['confirmed', 'checked_in', 'checked_out']);
  const cancelled = count(['cancelled']);
  return {
    searches: null,
    created,
    confirmed,
    stayed: rows.reduce((s, r) => s + r.stayed, 0),
    cancelled,
    no_show: count(['no_show']),
    confirmation_rate: ratio(confirmed, created),
    cancellation_rate: ratio(cancelled, created),
  };
});

export const campaignsReport = fromReceived<'campaigns'>((rows) => {
  const campaignOf = (r: Received) =>
    r.source_channel === 'GHA' ? 'search_ads' : r.agency !== null ? `agency:${r.agency}` : undefined;
  const attributed = rows.filter((r) => campaignOf(r) !== undefined);
  return {
    campaigns: groupBy(attributed, (r) => campaignOf(r) as string).map(([campaign, g]) => ({
      campaign,
      ...sumOf(g),
      clicks: null,
      cost: null,
    })),
  };
});
