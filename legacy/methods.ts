import { getAvailability } from './availability/get-availability.ts';
import { updateAvailability } from './availability/update-availability.ts';
import { ackBooking } from './booking/ack-booking.ts';
import { getBookings } from './booking/get-bookings.ts';
import { postRoomAssignment } from './booking/post-room-assignment.ts';
import type { LegacyMethod } from './legacy-call.ts';
import { getBookingOffers } from './property/get-booking-offers.ts';
import { getPropertySettings } from './property/get-property-settings.ts';
import { getRoomsDetails } from './property/get-rooms-details.ts';
import { postExternalPropertyData } from './property/post-external-property-data.ts';

/**
 * The legacy method table: `{epClass}/{epMethod}` -> method (spec 4.8). The facade dispatches through it; the
 * methods import only legacy-call.ts, never the facade, so no module takes part in an import cycle.
 */
const endpoints: Record<string, Record<string, LegacyMethod>> = {
  availability: { updateAvailability, getAvailability },
  booking: { getBookings, ackBooking, postRoomAssignment },
  property: { getRoomsDetails, getPropertySettings, postExternalPropertyData, getBookingOffers },
};

// PHP resolves class and method names case-insensitively, so `Booking/GetBookings` always worked too.
const lookup = new Map(
  Object.entries(endpoints).map(([cls, methods]) => [
    cls.toLowerCase(),
    new Map(Object.entries(methods).map(([name, fn]) => [name.toLowerCase(), fn])),
  ]),
);

/** Every method as `class/method`, spelled as in the table: how the operator names endpoints (sunset, usage). */
export const LEGACY_ENDPOINTS: readonly string[] = Object.entries(endpoints).flatMap(([cls, methods]) =>
  Object.keys(methods).map((name) => `${cls}/${name}`),
);
const endpointNames = new Map(LEGACY_ENDPOINTS.map((name) => [name.toLowerCase(), name]));

/** `Booking/GETBOOKINGS` -> `booking/getBookings`; undefined when the table has no such method. */
export function legacyEndpointName(epClass: string, epMethod: string): string | undefined {
  return endpointNames.get(`${epClass}/${epMethod}`.toLowerCase());
}

/** The methods of a class, whatever the case of its name; undefined for an unknown class. */
export function legacyClass(epClass: string): ReadonlyMap<string, LegacyMethod> | undefined {
  return lookup.get(epClass.toLowerCase());
}
