import { parseDay } from '../server/core/days.ts';
import { ApiError, type FieldErrors, validationError } from '../server/core/http/api-error.ts';

/** Spec 8.2: rows per inventory request, and day-rows after expanding their date ranges. */
export const MAX_ROWS = 1000;
export const MAX_DAY_ROWS = 20_000;

export interface DayRange {
  from: number;
  to: number;
}

/**
 * Refuses a batch over the limits with 422 errors.qc.batch_too_large (more than 1000 rows, or ranges that
 * expand to more than 20000 day-rows before any trimming or merging), naming the limit it broke.
 */
export function checkRowLimit(rows: number): void {
  if (rows > MAX_ROWS) throw new ApiError('errors.qc.batch_too_large', { limit: 'rows', max: MAX_ROWS, actual: rows });
}

export function checkDayRowLimit(dayRows: number): void {
  if (dayRows > MAX_DAY_ROWS) {
    throw new ApiError('errors.qc.batch_too_large', { limit: 'day_rows', max: MAX_DAY_ROWS, actual: dayRows });
  }
}

/** Each row's inclusive day range; impossible dates and reversed ranges are 422 validation errors. */
export function rowRanges(rows: readonly { date_from: string; date_to: string }[], resource: string): DayRange[] {
  checkRowLimit(rows.length);
  const errors: FieldErrors = {};
  const message = (rule: string) => [`customer.${resource}.messages.${rule}`];
  let dayRows = 0;
  const ranges = rows.map((row, i) => {
    const from = parseDay(row.date_from);
    const to = parseDay(row.date_to);
    if (from === undefined) errors[`values.${i}.date_from`] = message('format');
    if (to === undefined) errors[`values.${i}.date_to`] = message('format');
    if (from === undefined || to === undefined) return { from: 0, to: -1 };
    if (from > to) errors[`values.${i}.date_to`] = message('before_date_from');
    dayRows += Math.max(0, to - from + 1);
    return { from, to };
  });
  if (Object.keys(errors).length) throw validationError(errors);
  checkDayRowLimit(dayRows);
  return ranges;
}
