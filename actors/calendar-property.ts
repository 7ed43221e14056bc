import type { Db } from '../server/core/db/db.ts';

/** A property as a calendar turn reads it, inside the turn (the mode may have flipped since the request began). */
export interface CalendarProperty {
  id: number;
  external_id: string;
  customer_id: number;
  timezone: string;
  mode: 'shadow' | 'live';
}

/** Re-reads the property inside its actor turn; a calendar write decides live or dry on this, never earlier. */
export async function readCalendarProperty(tx: Db, propertyId: number): Promise<CalendarProperty> {
  const [property] = await tx.sql<CalendarProperty>`
    select id, external_id, customer_id, timezone, mode from properties where id = ${propertyId}`;
  if (!property) throw new Error(`property ${propertyId} vanished during its calendar turn`);
  return property;
}
