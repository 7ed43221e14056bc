import type { Db } from '../core/db/db.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { Report } from './model.ts';

export interface Range {
  from: string;
  to: string;
}

/** Statuses that hold rooms: what occupancy, ADR and RevPAR count. */
const HOLDING = ['tentative', 'confirmed', 'checked_in', 'checked_out'];

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);
const money = (n: number) => Math.round(n * 100) / 100;

/**
 * Stay-date figures for the nights from..to (inclusive): a booking line counts its units times the nights
 * it overlaps the range, and its price spread evenly over its nights (so a stay half inside the range
 * brings half its price). Revenue counts only bookings in the property's currency.
 */
export async function overviewReport(db: Db, property: PropertyRow, range: Range): Promise<Report<'overview'>> {
  const [stays] = await db.sql<{ sold: number; revenue: number; other_currency: number }>`
    select coalesce(sum(br.qty * overlap.nights), 0)::int as sold,
      coalesce(sum(br.price * overlap.nights / nullif(br.checkout_date - br.checkin_date, 0))
        filter (where b.currency_code = ${property.currency}), 0)::float8 as revenue,
      count(distinct b.id) filter (where b.currency_code <> ${property.currency})::int as other_currency
    from bookings b join booking_rooms br on br.booking_id = b.id,
      lateral (select greatest(0, least(br.checkout_date, ${range.to}::date + 1) - greatest(br.checkin_date, ${range.from}::date)) as nights) overlap
    where b.property_id = ${property.id} and b.status = any(${HOLDING}::text[])
      and br.checkin_date <= ${range.to}::date and br.checkout_date > ${range.from}::date`;
  const [capacity] = await db.sql<{ available: number }>`
    select (coalesce(sum(qty), 0) * (${range.to}::date - ${range.from}::date + 1))::int as available
    from room_types where property_id = ${property.id} and deleted_at is null`;
  const [counts] = await db.sql<{ received: number; cancelled: number }>`
    select count(*) filter (where (received_at at time zone ${property.timezone})::date between ${range.from}::date and ${range.to}::date)::int as received,
      count(*) filter (where (cancelled_at at time zone ${property.timezone})::date between ${range.from}::date and ${range.to}::date)::int as cancelled
    from bookings where property_id = ${property.id}`;
  const sold = stays?.sold ?? 0;
  const available = capacity?.available ?? 0;
  const revenue = money(stays?.revenue ?? 0);
  return {
    currency: property.currency,
    room_nights_available: available,
    room_nights_sold: sold,
    occupancy: ratio(sold, available),
    room_revenue: revenue,
    adr: sold === 0 ? null : money(revenue / sold),
    revpar: available === 0 ? null : money(revenue / available),
    bookings_received: counts?.received ?? 0,
    cancellations: counts?.cancelled ?? 0,
    other_currency_bookings: stays?.other_currency ?? 0,
  };
}

/**
 * On the books per stay date, now and at the same instant a year ago for the same date a year earlier.
 * "On the books at T" is a booking received by T and not cancelled by T (its cancellation time says when),
 * whatever happened after; requested (not yet accepted) bookings never count.
 */
export async function paceReport(db: Db, property: PropertyRow, range: Range, now: Date): Promise<Report<'pace'>> {
  const lastYear = new Date(now);
  lastYear.setUTCFullYear(lastYear.getUTCFullYear() - 1);
  const rows = await db.sql<{
    date: string;
    last_year_date: string;
    room_nights: number;
    revenue: number;
    last_year_room_nights: number;
    last_year_revenue: number;
  }>`
    with days as (
      select d::date as date, (d - interval '1 year')::date as last_year_date
      from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') d
    ), lines as (
      select b.received_at, b.cancelled_at, b.currency_code, br.qty, br.price, br.checkin_date, br.checkout_date,
        (br.checkout_date - br.checkin_date) as nights
      from bookings b join booking_rooms br on br.booking_id = b.id
      where b.property_id = ${property.id} and b.status <> 'requested'
        and br.checkin_date <= ${range.to}::date and br.checkout_date > (${range.from}::date - interval '1 year')::date
    )
    select days.date, days.last_year_date,
      coalesce(sum(l.qty) filter (where now_on.v and l.checkin_date <= days.date and l.checkout_date > days.date), 0)::int as room_nights,
      coalesce(sum(l.price / nullif(l.nights, 0)) filter (where now_on.v and l.currency_code = ${property.currency}
        and l.checkin_date <= days.date and l.checkout_date > days.date), 0)::float8 as revenue,
      coalesce(sum(l.qty) filter (where then_on.v and l.checkin_date <= days.last_year_date
        and l.checkout_date > days.last_year_date), 0)::int as last_year_room_nights,
      coalesce(sum(l.price / nullif(l.nights, 0)) filter (where then_on.v and l.currency_code = ${property.currency}
        and l.checkin_date <= days.last_year_date and l.checkout_date > days.last_year_date), 0)::float8 as last_year_revenue
    from days left join lines l on true,
      lateral (select l.received_at <= ${now} and (l.cancelled_at is null or l.cancelled_at > ${now}) as v) now_on,
      lateral (select l.received_at <= ${lastYear} and (l.cancelled_at is null or l.cancelled_at > ${lastYear}) as v) then_on
    group by days.date, days.last_year_date order by days.date`;
  return {
    as_of: now.toISOString(),
    days: rows.map((r) => ({ ...r, revenue: money(r.revenue), last_year_revenue: money(r.last_year_revenue) })),
  };
}
