import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import type { BookingRow } from './snapshot.ts';

/** A booking by external_booking_id on one property; 404 when it is not there. */
export async function bookingOnProperty(db: Db, propertyId: number, externalBookingId: string): Promise<BookingRow> {
  const [row] = await db.sql<BookingRow>`
    select * from bookings where property_id = ${propertyId} and external_booking_id = ${externalBookingId}`;
  if (!row) throw notFound();
  return row;
}

/** A booking by external_booking_id on any property the token may act on; 404 otherwise (spec 5.3). */
export async function bookingInScope(db: Db, principal: Principal, externalBookingId: string): Promise<BookingRow> {
  const [row] = await db.sql<BookingRow>`
    select * from bookings where external_booking_id = ${externalBookingId} and property_id = any(${[...principal.propertyIds]}::bigint[])`;
  if (!row) throw notFound();
  return row;
}
