import type { Db } from '../server/core/db/db.ts';

/** A property as a calendar turn reads it, inside the turn (the mode may have flipped since the request began). */
export interface CalendarProperty {
  id: number;
  external_id: string;
  customer_id: number;
  timezone: string;
  mode: 'shadow' | 'live';
}

/**
 * A calendar turn's first statement: turns JIT off until the turn's transaction ends, and re-reads the property
 * inside its actor turn (a calendar write decides live or dry on this, never earlier).
 *
 * JIT off: a turn is a handful of short statements, and compiling them (JIT kicks in on a big calendar's cost
 * estimates) would cost more than running them. One statement for both: a round trip is about a tenth of a
 * one-day push (1.7 ms at the median, docs/performance.md "Ninth session").
 */
export async function openCalendarTurn(tx: Db, propertyId: number): Promise<CalendarProperty> {
  const [property] = await tx.sql<CalendarProperty>`
    select id, external_id, customer_id, timezone, mode
    from set_config('jit', 'off', true), properties where id = ${propertyId}`;
  if (!property) throw new Error(`property ${propertyId} vanished during its calendar turn`);
  return property;
}
