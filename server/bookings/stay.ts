/** Calendar arithmetic on 'YYYY-MM-DD' strings (UTC days: a night is a date, no time zone involved). */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function nightCount(checkin: string, checkout: string): number {
  return Math.round((Date.parse(`${checkout}T00:00:00Z`) - Date.parse(`${checkin}T00:00:00Z`)) / DAY_MS);
}

/** The nights a stay occupies: check-in day up to, not including, the check-out day. */
export function nightsOf(checkin: string, checkout: string): string[] {
  const n = nightCount(checkin, checkout);
  return Array.from({ length: Math.max(n, 0) }, (_, i) => addDays(checkin, i));
}
