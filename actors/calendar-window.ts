import { addYears, todayIn } from '../server/core/days.ts';

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
