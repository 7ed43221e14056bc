/**
 * The one day/date module. Calendar dates are day numbers (whole days since 1970-01-01) so that expanding a
 * range is integer counting; `YYYY-MM-DD` strings only at the edges (SQL parameters, bodies, legacy calls).
 * A date here is a wall-calendar date with no time zone; `todayIn` is the one place a zone turns an
 * instant into a date.
 */
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a `YYYY-MM-DD` string, or undefined when it is not a real calendar date (2026-02-30). */
export function parseDay(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

// A batch touches a few hundred distinct dates thousands of times over; formatting each once is enough.
const formatted = new Map<number, string>();

export function formatDay(day: number): string {
  let text = formatted.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (formatted.size > 50_000) formatted.clear();
    formatted.set(day, text);
  }
  return text;
}

const todayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's day number on the wall calendar of an IANA time zone. */
export function todayIn(timeZone: string, now: Date): number {
  let format = todayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    todayFormats.set(timeZone, format);
  }
  const day = parseDay(format.format(now));
  if (day === undefined) throw new Error(`cannot read today's date in ${timeZone}`);
  return day;
}

/** The same calendar date `years` later; 29 February becomes 28 February in a common year. */
export function addYears(day: number, years: number): number {
  const d = new Date(day * DAY_MS);
  const year = d.getUTCFullYear() + years;
  const lastOfMonth = new Date(Date.UTC(year, d.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(year, d.getUTCMonth(), Math.min(d.getUTCDate(), lastOfMonth)) / DAY_MS;
}

/**
 * Calendar years the way PHP's `+N years` counts them (the legacy facade's window): 29 February overflows
 * to 1 March in a common year, where `addYears` clamps to 28 February.
 */
export function phpAddYears(day: number, years: number): number {
  const d = new Date(day * DAY_MS);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()) / DAY_MS;
}

// The same arithmetic on `YYYY-MM-DD` strings, for code that reads and writes dates as text throughout
// (stays, the legacy facade). The string must already be a valid date (check with isDay first).
const dayNumber = (date: string) => parseDay(date) as number;

/** Strictly `YYYY-MM-DD` and a real calendar day (2025-02-30 is refused). */
export function isDay(value: unknown): value is string {
  return typeof value === 'string' && parseDay(value) !== undefined;
}

export function addDays(date: string, days: number): string {
  return formatDay(dayNumber(date) + days);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Every date from `from` through `to`, inclusive (none when `to` is before `from`). */
export function daysOf(from: string, to: string): string[] {
  return Array.from({ length: Math.max(daysBetween(from, to) + 1, 0) }, (_, i) => addDays(from, i));
}

/** The wall-calendar date in `timeZone` at `now`, as text. */
export function localToday(timeZone: string, now: Date): string {
  return formatDay(todayIn(timeZone, now));
}

/** The UTC calendar date of an instant (daily budgets that reset at 00:00 UTC). */
export function utcDay(at: Date): string {
  return formatDay(Math.floor(at.getTime() / DAY_MS));
}

/** `date` plus whole calendar months, clamped to the month's last day (2027-08-31 + 6 months = 2028-02-29). */
export function addMonths(date: string, months: number): string {
  const d = new Date(dayNumber(date) * DAY_MS);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1) / DAY_MS;
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0)).getUTCDate();
  return formatDay(first + Math.min(d.getUTCDate(), last) - 1);
}
