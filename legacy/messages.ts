import { dump } from './bytes.ts';

/**
 * Every message of spec 7.4, byte for byte, in one place. Handlers raise `LegacyError`s built from these;
 * the table-driven suite (messages.table.test.ts) proves each one reaches the wire unchanged.
 */
export const messages = {
  auth: {
    missingKey: 'Wrong api key! *',
    unknownKey: 'Wrong api key',
    inactiveKey: 'Wrong api key! **',
  },
  dispatch: {
    missingClass: (epClass: string) => `Missing endpoint class: ${epClass}`,
    missingMethod: (epMethod: string) => `Missing endpoint method: ${epMethod}`,
  },
  // Not in 7.4: what the facade answers when it forwards to the legacy service (cutover mode shadow) and gets
  // no answer, in the form of the legacy's own unhandled failure; and once an endpoint's sunset has passed.
  cutover: {
    upstreamUnreachable: 'Throw Error Exception\nMsg: Legacy service unreachable\nCode: 0',
    upstreamTimeout: (ms: number) =>
      `Throw Error Exception\nMsg: Legacy service did not answer within ${ms} ms\nCode: 0`,
    retired: (date: string, guide: string | undefined) =>
      `This endpoint was retired on ${date}.${guide ? ` Migration guide: ${guide}` : ''}`,
  },
  updateAvailability: {
    badStructure:
      "Bad request data! Wrong format of the post structure (missing 'values' structure - check documentation)!",
    invalidQty: (row: unknown) => `Invalid qty (qty can't be < 0) for: ${dump(row)}`,
    missingQtyOrOpened: (row: unknown) => `Missing parameters qty and/or is_opened for: ${dump(row)}`,
    bothRoomIds: (row: unknown) =>
      `Both parameters 'room_id', 'ext_room_id' can't be set at the same time!${dump(row)}`,
    missingRoomId: (row: unknown) => `Missing room_id for: ${dump(row)}`,
    roomNotFound: (row: unknown) => `Not found property room_id for: ${dump(row)}`,
    invalidDate: (row: unknown) => `Invalid date format (must be 'YYYY-MM-DD') for: ${dump(row)}`,
    invalidRange: (row: unknown) => `Invalid date_from/date_to format (must be 'YYYY-MM-DD') for: ${dump(row)}`,
    missingDates: (row: unknown) => `Missing date or date_from/date_to for: ${dump(row)}`,
    invalidParams: (row: unknown) => `Invalid params for: ${dump(row)}`,
    extRoomNotFound: (row: unknown) => `Can't find room id for the given ext room id for: ${dump(row)}`,
  },
  getAvailability: {
    badRequest: 'Missing/Invalid required request data!',
    bothRoomIds: "Both parameters 'room_id', 'ext_room_id' can't be set at the same time!",
    extRoomNotFound: "Can't find room id for the given ext room id!",
  },
  getBookings: {
    invalidType: "Invalid value for the 'type' parameter!",
  },
  ackBooking: {
    badRequest: 'Bad request data! (booking_id or revision_id missing)',
    alreadyAcked: 'The ack was already sent!',
    badItems: 'Missing booking_items[].booking_item_id and/or booking_items[].ext_reservation_id!',
    missingRevision: 'Missing booking revision!',
    missingBooking: 'Missing booking!',
    missingItem: 'Missing booking item!',
    // Not in 7.4: a room_number wider than the legacy column. The legacy's write failed there (as postRoomAssignment's
    // does, which catches it) and ackBooking did not catch it: MySQL's error as PDO reported it, in the unhandled form.
  },
  postRoomAssignment: {
    badRequest: 'Bad request data! (booking_id, booking_item_id or room_number missing)',
    writeFailed: 'Error when try to post room assignment!',
    missingBooking: 'Missing booking!',
    missingItem: 'Missing booking item!',
  },
  postExternalPropertyData: {
    badRequest: 'Bad post request data!',
  },
  getRoomsDetails: {
    /** The room loader's own failure message, which getRoomsDetails passes through (spec 7.4). */
    roomNotLoadable: (roomId: string) => `Room with id ${roomId} not found for this property!`,
  },
  getBookingOffers: {
    badRequest: 'Bad request data!',
    badAdults: "Bad request data for the 'guests'->'adults' param!",
    badGuests: "Bad request data for the 'guests' param!",
    badChildAge: "Bad request data for the 'guests'->'children_by_ages'->'age' param!",
    moduleNotFound: (bmCode: string) => `Booking module '${bmCode}' not found or inactive.`,
    ownerNotFound: 'Property owner not found.',
  },
} as const;

/** A legacy answer with a plain-English message (spec 1.4); the facade renders it through bytes.ts. */
export class LegacyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'LegacyError';
  }
}

export const badRequest = (message: string) => new LegacyError(400, message);
export const notFound = (message: string) => new LegacyError(404, message);
