import { RESTRICTION_FIELDS, type RestrictionValues } from '../../actors/calendar-writes.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';

/** The restriction fields a row sets, or undefined when it sets none. */
export function restrictionValues(row: RestrictionValues): RestrictionValues | undefined {
  const values: Record<string, number | boolean> = {};
  for (const field of RESTRICTION_FIELDS) {
    const value = row[field];
    if (value !== undefined) values[field] = value;
  }
  return Object.keys(values).length ? values : undefined;
}

/** A row sending both lengths of stay with min above max is a 422 on its max_los. */
export function checkLengthsOfStay(rows: readonly RestrictionValues[], resource: string): void {
  const errors: FieldErrors = {};
  rows.forEach((row, i) => {
    if (row.min_los !== undefined && row.max_los !== undefined && row.min_los > row.max_los) {
      errors[`values.${i}.max_los`] = [`customer.${resource}.messages.below_min_los`];
    }
  });
  if (Object.keys(errors).length) throw validationError(errors);
}
