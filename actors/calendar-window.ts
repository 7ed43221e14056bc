import { addYears, localToday, phpAddYears, todayIn } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';

/** Inclusive range of day numbers. */
export interface DayWindow {
  from: number;
  to: number;
}

/**
 * The dates a calendar write may touch: from yesterday on the property's own wall calendar (a guest may
 * still be checking in for last night) through the same date two years ahead. Day-rows outside are skipped
 * and counted, so a range straddling an edge is trimmed to the part inside.
 */
export function acceptedWindow(timeZone: string, now: Date): DayWindow {
  const today = todayIn(timeZone, now);
  return { from: today - 1, to: addYears(today, 2) };
}

/** The legacy service's window: the same, with two years counted as PHP's `+2 years` (29 February rolls over). */
export function legacyWindow(timeZone: string, now: Date): DayWindow {
  const today = todayIn(timeZone, now);
  return { from: today - 1, to: phpAddYears(today, 2) };
}

/**
 * The set-time of every day a legacy write stamps: today 05:00 property-local, as the legacy service
 * stamped it.
 */
export async function legacyStamp(tx: Db, property: { timezone: string }, now: Date): Promise<Date> {
  const today = localToday(property.timezone, now);
  const [row] = await tx.sql<{
    at: Date;
  }>`select (${today}::date + time '05:00') at time zone ${property.timezone} as at`;
  return (row as { at: Date }).at;
}
