import { formatDay, parseDay, todayIn } from '../actors/calendar-days.ts';

/**
 * The legacy facade works on 'YYYY-MM-DD' strings (what it reads and writes); the arithmetic is the shared
 * day-number one of actors/calendar-days.ts, except `addYears`, which counts as the legacy PHP did.
 */
const dayNumber = (day: string) => parseDay(day) as number;

/** Strictly `YYYY-MM-DD` and a real calendar day (2025-02-30 is refused). */
export function isDay(value: unknown): value is string {
  return typeof value === 'string' && parseDay(value) !== undefined;
}

export function addDays(day: string, days: number): string {
  return formatDay(dayNumber(day) + days);
}

/** Calendar years the way PHP's `+N years` counts them: 29 February overflows to 1 March. */
export function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + years, m - 1, d)).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

export function daysOf(from: string, to: string): string[] {
  return Array.from({ length: Math.max(daysBetween(from, to) + 1, 0) }, (_, i) => addDays(from, i));
}

/** The property's local calendar date at `now`. */
export function localToday(timezone: string, now: Date): string {
  return formatDay(todayIn(timezone, now));
}
