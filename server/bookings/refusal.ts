import { ApiError } from '../core/http/api-error.ts';

/**
 * Why a booking change was refused, in the error body's `reason` beside the key (documented in the README):
 * unknown_property, property_not_live, unknown_channel, bad_dates, no_rooms, bad_qty, unknown_room_or_rate,
 * no_availability, closed, length_of_stay, duplicate_booking_id.
 */
export type RefusalReason =
  | 'unknown_property'
  | 'property_not_live'
  | 'unknown_channel'
  | 'bad_dates'
  | 'no_rooms'
  | 'bad_qty'
  | 'unknown_room_or_rate'
  | 'no_availability'
  | 'closed'
  | 'length_of_stay'
  | 'duplicate_booking_id';

export const CREATE_FAILED = 'errors.qc.booking_create_failed';
export const MODIFY_FAILED = 'errors.qc.booking_modify_failed';

/** A refused creation is 422 errors.qc.booking_create_failed (spec 7.3); a refused modification its own key. */
export class BookingRefused extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    key: typeof CREATE_FAILED | typeof MODIFY_FAILED = CREATE_FAILED,
  ) {
    super(key, { reason });
    this.name = 'BookingRefused';
  }
}
