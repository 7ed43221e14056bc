import { recordInProperty } from '../core/routes/in-property.ts';
import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { bookingInScope, bookingOnProperty } from './partner-lookup.ts';
import type { BookingRow } from './snapshot.ts';

/**
 * The booking of a route under /bookings/:booking, declared as the route's `pathRecord`: the pipeline resolves it
 * for the caller before it reads the body, so a booking on a property the token may not act on, or an unknown
 * id, is a 404 whatever the body (README, Authorization). The room assignment locks it in its property's turn;
 * the ack acks its revisions with the row found here, read once. Bookings are never deleted, so a keyed retry
 * finds it again and replays.
 */
export const pathBooking: PathRecordResolver<BookingRow> = (deps, principal, params) =>
  bookingInScope(deps.db, principal, params.booking ?? '');

/**
 * The booking of a route under /properties/:property/bookings/:booking, found on the path's property the same
 * way: another property's booking, even the caller's, is a 404 whatever the body. The write locks it in the
 * property's turn.
 */
export const pathBookingOnProperty = recordInProperty((deps, property, params) =>
  bookingOnProperty(deps.db, property.id, params.booking ?? ''),
);
