import type { RateRowErrorCode } from '../server/core/http/error-catalogue.ts';
import type { Prices, RestrictionValues } from './calendar-writes.ts';

/**
 * Rows of the per-plan rate write (`POST /rate_plans/{id}/rates`, `{values: [{date, prices, restrictions}]}`)
 * are checked one by one: a bad row is reported in `errors[]` with a code of spec 7.2 and the others go on.
 */
export interface RowError {
  row: number;
  code: RateRowErrorCode;
  message?: string;
  field?: string;
  date?: string;
  room_type_id?: string;
  unknown_code?: string;
  allowed_codes?: string[];
}

/** A row of the per-plan write that passed its own checks, as data. */
export interface RateRow {
  row: number;
  day: number;
  date: string;
  /** Optional narrowing to one room type of the plan; absent means every room type the plan sells. */
  roomTypeId?: string;
  prices?: Prices;
  restrictions?: RestrictionValues;
}
