import { addDays, daysBetween } from '../core/days.ts';

/** Stays on 'YYYY-MM-DD' strings (a night is a date, no time zone involved), on the shared day arithmetic. */
export function nightCount(checkin: string, checkout: string): number {
  return daysBetween(checkin, checkout);
}

/** The nights a stay occupies: check-in day up to, not including, the check-out day. */
export function nightsOf(checkin: string, checkout: string): string[] {
  const n = nightCount(checkin, checkout);
  return Array.from({ length: Math.max(n, 0) }, (_, i) => addDays(checkin, i));
}
