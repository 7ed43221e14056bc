/**
 * Calendar dates as day numbers (whole days since 1970-01-01) so that expanding a range is integer counting,
 * and back to `YYYY-MM-DD` only at the edges (SQL parameters, response bodies).
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
