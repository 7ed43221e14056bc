import { formatDay, parseDay } from '../../actors/calendar-days.ts';

/** Stays on 'YYYY-MM-DD' strings (UTC days: a night is a date, no time zone involved), on the shared day numbers. */
const dayNumber = (date: string) => parseDay(date) as number;

/** Strictly `YYYY-MM-DD` and a real calendar day. */
export function isDate(value: unknown): value is string {
  return typeof value === 'string' && parseDay(value) !== undefined;
}

export function addDays(date: string, days: number): string {
  return formatDay(dayNumber(date) + days);
}

export function nightCount(checkin: string, checkout: string): number {
  return dayNumber(checkout) - dayNumber(checkin);
}

/** The nights a stay occupies: check-in day up to, not including, the check-out day. */
export function nightsOf(checkin: string, checkout: string): string[] {
  const n = nightCount(checkin, checkout);
  return Array.from({ length: Math.max(n, 0) }, (_, i) => addDays(checkin, i));
}
