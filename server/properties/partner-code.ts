import { SqlState, sqlState } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';

/**
 * Runs a write that may set a partner code. Codes are unique per customer for properties and per property
 * for room types and rate plans (unique indexes); a clash is 409 errors.qc.partner_code_taken.
 */
export async function uniquePartnerCode<T>(write: () => Promise<T | undefined>): Promise<T> {
  let row: T | undefined;
  try {
    row = await write();
  } catch (err) {
    if (sqlState(err) === SqlState.uniqueViolation) throw new ApiError('errors.qc.partner_code_taken');
    throw err;
  }
  if (!row) throw new Error('write returned no row');
  return row;
}
