import { parseDay } from '../core/days.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';

/**
 * The longest range a calendar read answers: the whole accepted write window (actors/calendar-window.ts), so a
 * partner reconciles everything it may push in one read. Yesterday, today, and two years ahead, of which one
 * may hold 29 February: 1 + 1 + 731 days.
 */
export const MAX_READ_DAYS = 733;

/** `from`/`to` of a calendar read as day numbers: real dates, in order, at most MAX_READ_DAYS apart (else 422). */
export function readRange(query: { from: string; to: string }, resource: string): { from: number; to: number } {
  const errors: FieldErrors = {};
  const message = (rule: string) => [`customer.${resource}.messages.${rule}`];
  const from = parseDay(query.from);
  const to = parseDay(query.to);
  if (from === undefined) errors.from = message('format');
  if (to === undefined) errors.to = message('format');
  if (from !== undefined && to !== undefined) {
    if (from > to) errors.to = message('before_from');
    else if (to - from + 1 > MAX_READ_DAYS) errors.to = message('range_too_long');
  }
  if (from === undefined || to === undefined || Object.keys(errors).length) throw validationError(errors);
  return { from, to };
}
