import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import type { BookingRow } from './snapshot.ts';

export interface BookingProperty {
  id: number;
  external_id: string;
  customer_id: number;
  mode: 'shadow' | 'live';
  currency: string;
}

export async function propertyForBooking(db: Db, propertyId: number): Promise<BookingProperty | undefined> {
  const [row] = await db.sql<BookingProperty>`
    select id, external_id::text as external_id, customer_id, mode, trim(currency) as currency from properties where id = ${propertyId}`;
  return row;
}

/** The property a booking belongs to (it never moves), to pick the actor before entering its turn. */
export async function propertyIdOfBooking(db: Db, bookingId: number): Promise<number> {
  const [row] = await db.sql<{ property_id: number }>`select property_id from bookings where id = ${bookingId}`;
  if (!row) throw notFound();
  return row.property_id;
}

/** The booking row, locked for the rest of the caller's transaction. */
export async function lockBooking(tx: Db, bookingId: number): Promise<BookingRow> {
  const [row] = await tx.sql<BookingRow>`select * from bookings where id = ${bookingId} for update`;
  if (!row) throw notFound();
  return row;
}
