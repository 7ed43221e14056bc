import { addDays, isDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { pageMeta } from '../core/http/envelope.ts';
import { filterText, pageSize, wholeNumber } from '../core/http/lenient-query.ts';
import { feedCursor, feedPage } from './feed.ts';
import type { BookingRow } from './snapshot.ts';
import { bookingViews } from './view.ts';

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 100;

/**
 * `booking_status` filter values (spec 4.5) and the stored statuses each selects. `created` is a booking
 * still waiting for confirmation; the informational statuses are accepted too (additive).
 */
const STATUS_FILTER: Record<string, string[]> = {
  created: ['requested', 'tentative'],
  tentative: ['tentative'],
  confirmed: ['confirmed'],
  cancelled: ['cancelled'],
  no_show: ['no_show'],
  checked_in: ['checked_in'],
  checked_out: ['checked_out'],
};

export interface BookingFilters {
  page: number;
  limit: number;
  checkinFrom?: string;
  checkinTo?: string;
  checkoutFrom?: string;
  checkoutTo?: string;
  /** Local timestamps 'YYYY-MM-DD HH:MM:SS' in the property's time zone; `insertedTo` is exclusive. */
  insertedFrom?: string;
  insertedTo?: string;
  statuses?: string[];
  sourceChannel?: string;
  guestName?: string;
  bookingId?: string;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

function dateTime(value: string | null): { date: string; time?: string } | undefined {
  const m = value ? DATE_TIME.exec(value) : null;
  if (!m || !isDay(m[1])) return undefined;
  if (m[2] === undefined) return { date: m[1] as string };
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) return undefined;
  return { date: m[1] as string, time: `${m[2]}:${m[3]}:${m[4]}` };
}

/** The local timestamp one second after `date time`: an inclusive upper bound made exclusive. */
function nextSecond(date: string, time: string): string {
  return new Date(Date.parse(`${date}T${time}Z`) + 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The list filters (spec 4.5), read leniently: a malformed value is dropped as if absent, never an error.
 * Dates accept `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (check-in/out compare the date part; the `_to` bounds
 * are inclusive). `inserted_to` is inclusive too: a date alone covers that whole day, a time that whole second.
 */
export function parseFilters(params: URLSearchParams): BookingFilters {
  const f: BookingFilters = {
    page: wholeNumber(params.get('page'), 1) ?? 1,
    // `per_page`, as on every list, or the interface's own name `limit` (spec 4.5).
    limit: pageSize(params.get('per_page') ?? params.get('limit'), LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT),
  };
  f.checkinFrom = dateTime(params.get('checkin_from'))?.date;
  f.checkinTo = dateTime(params.get('checkin_to'))?.date;
  f.checkoutFrom = dateTime(params.get('checkout_from'))?.date;
  f.checkoutTo = dateTime(params.get('checkout_to'))?.date;
  const from = dateTime(params.get('inserted_from'));
  if (from) f.insertedFrom = `${from.date} ${from.time ?? '00:00:00'}`;
  const to = dateTime(params.get('inserted_to'));
  if (to) f.insertedTo = to.time ? nextSecond(to.date, to.time) : `${addDays(to.date, 1)} 00:00:00`;
  const statuses = [...params.getAll('booking_status'), ...params.getAll('booking_status[]')].flatMap(
    (s) => STATUS_FILTER[s] ?? [],
  );
  if (statuses.length) f.statuses = [...new Set(statuses)];
  f.sourceChannel = filterText(params.get('source_channel'), 32);
  f.guestName = filterText(params.get('guest_name'), 100);
  f.bookingId = filterText(params.get('booking_id'), 200);
  for (const key of Object.keys(f) as (keyof BookingFilters)[]) if (f[key] === undefined) delete f[key];
  return f;
}

/** One page of a property's bookings under the filters, newest first, and the total under the filters. */
export async function listBookings(db: Db, propertyId: number, timezone: string, f: BookingFilters) {
  const where = ['property_id = $1'];
  const params: unknown[] = [propertyId];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.checkinFrom) add((p) => `checkin_date >= ${p}::date`, f.checkinFrom);
  if (f.checkinTo) add((p) => `checkin_date <= ${p}::date`, f.checkinTo);
  if (f.checkoutFrom) add((p) => `checkout_date >= ${p}::date`, f.checkoutFrom);
  if (f.checkoutTo) add((p) => `checkout_date <= ${p}::date`, f.checkoutTo);
  if (f.insertedFrom || f.insertedTo) params.push(timezone);
  const tz = `$${params.length}`;
  if (f.insertedFrom) add((p) => `received_at >= (${p}::text::timestamp at time zone ${tz}::text)`, f.insertedFrom);
  if (f.insertedTo) add((p) => `received_at < (${p}::text::timestamp at time zone ${tz}::text)`, f.insertedTo);
  if (f.statuses) add((p) => `status = any(${p}::text[])`, f.statuses);
  if (f.sourceChannel) add((p) => `source_channel = ${p}`, f.sourceChannel);
  if (f.guestName)
    add(
      (p) => `(strpos(lower(guest_first_name), lower(${p})) > 0 or strpos(lower(guest_last_name), lower(${p})) > 0)`,
      f.guestName,
    );
  if (f.bookingId) add((p) => `strpos(external_booking_id, ${p}) > 0`, f.bookingId);
  const condition = where.join(' and ');
  // One statement: the matches are read once, counted, and only the page's rows fetched whole. A count and a
  // page query each read every matching row in full, which grew with the property's bookings: 4.5 ms against
  // 2.4 on a property with 1000 matches against 120 (bench:volume). The total rides on every row, and
  // on one row of nulls when the page is empty.
  const found = await db.query<BookingRow & { list_total: number }>(
    `with matched as materialized (select id, received_at from bookings where ${condition}),
     page as (select id, received_at from matched order by received_at desc, id desc
              limit ${f.limit} offset ${(f.page - 1) * f.limit})
     select b.*, t.list_total
     from (select count(*)::int as list_total from matched) t
     left join (page p join bookings b on b.id = p.id) on true
     order by p.received_at desc, p.id desc`,
    params,
  );
  const total = found[0]?.list_total ?? 0;
  const rows = found.flatMap(({ list_total: _, ...row }) => (row.id === null ? [] : [row as BookingRow]));
  return { rows, total };
}

/**
 * GET /properties/{p}/bookings: the filtered list, or with revisions=1 the property-scoped revision feed
 * (since, limit and the answer of GET /booking_revisions/feed). Malformed values are dropped, not rejected.
 */
export async function propertyBookingsPage(
  db: Db,
  consumerId: number,
  property: { id: number; timezone: string },
  search: URLSearchParams,
) {
  if (search.get('revisions') === '1') {
    const cursor = feedCursor(search.get('since'), search.get('limit'));
    return feedPage(db, { consumerId, propertyIds: [property.id], ...cursor });
  }
  const filters = parseFilters(search);
  const { rows, total } = await listBookings(db, property.id, property.timezone, filters);
  return { bookings: await bookingViews(db, rows), meta: pageMeta(total, filters.page, filters.limit) };
}
