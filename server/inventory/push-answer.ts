import type { CalendarCounters } from '../../actors/calendar-write.ts';
import type { PushWarning } from '../../actors/push-warnings.ts';
import type { ErrorKey } from '../core/http/error-catalogue.ts';

/** The 202 `data` of the three inventory pushes (spec 4.4). */
export interface PushAnswer extends CalendarCounters {
  warnings: PushWarning[];
}

export const PUSH_RULES = `Answers 202 {written, unchanged, skipped_out_of_window, dry, warnings[]}. One request: one property,
at most 1000 rows expanding to at most 20000 day-rows (else 422 errors.qc.batch_too_large). Later rows win for the
same day. Dates outside yesterday (property time zone) .. two years ahead are skipped and counted. While the property
is shadow nothing is written: dry is true, every counter is 0, and would {written, unchanged, skipped_out_of_window}
says what the push would have done had the property been live.`;

/** What any push can refuse a whole batch with. */
export const PUSH_ERRORS = [
  'errors.not_found',
  'errors.validation_error',
  'errors.qc.batch_too_large',
  'errors.qc.multi_property_batch_not_allowed',
] as const satisfies readonly ErrorKey[];

/** ... and a push naming (rate plan, room type) pairs. */
export const PAIR_PUSH_ERRORS = [
  ...PUSH_ERRORS,
  'errors.qc.unknown_room_type',
  'errors.qc.unknown_room_or_rate',
] as const satisfies readonly ErrorKey[];
