import { storable } from './read-body.ts';

/**
 * List and feed query parameters are read leniently, by one rule (spec 4.5 for the bookings list:
 * "malformed values are dropped, not rejected"): a value that is not what the parameter takes reads as if
 * it were absent, so its default applies; a page size above its maximum is clamped. A partner's poller
 * keeps working on a bad parameter instead of stopping on a 422.
 */

/** A whole number of at least `min` written in decimal digits, or undefined (dropped). */
export function wholeNumber(raw: string | null | undefined, min: number): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min ? n : undefined;
}

/** A text filter of at most `maxLength` characters, or undefined (dropped): empty, longer, or not storable text. */
export function filterText(raw: string | null | undefined, maxLength: number): string | undefined {
  return raw && raw.length <= maxLength && storable(raw) ? raw : undefined;
}

/** A page size: a whole number of at least 1, else `fallback`; above `max`, `max`. */
export function pageSize(raw: string | null | undefined, fallback: number, max: number): number {
  return Math.min(wholeNumber(raw, 1) ?? fallback, max);
}
