import { describe, expect, it } from 'bun:test';
import type { Reply } from '../server/testing/harness.ts';
import { legacyTest, TODAY } from './legacy-test-fixture.ts';
import { LEGACY_ENDPOINTS } from './methods.ts';

/**
 * A NUL byte in a string input. PHP and MySQL carried it like any other byte: a lookup of such a value found
 * nothing. PostgreSQL's text refuses it, and it reached a query and answered the unhandled failure (`Throw Error
 * Exception ... 0x00 ... Code: 22021`). Each row sends one to a method and compares status and body bytes with the
 * method's own message for a value that matches nothing, or for a missing one where it would be stored; `stored`
 * checks that nothing of it was written. The expected bytes are written out by hand (`\u0000` as json_encode
 * writes a NUL, `\\u0000` inside a dump, which is encoded twice).
 */
const { t, f } = legacyTest();

const msg = (text: string) => `{"message":"${text}"}`;
const SUCCESS = msg('Success');

interface Row {
  endpoint: string;
  send: () => Promise<Reply>;
  status: number;
  body: () => string;
  /** What the database holds afterwards, compared with `holds()`. */
  stored?: () => Promise<unknown>;
  holds?: () => unknown;
}

/** A booking sent through getBookings: its revision id and item id. */
async function sentBooking() {
  const bookingId = await f.book();
  const revision = (await f.call('booking/getBookings', { query: { booking_id: bookingId } })).body.data[0];
  return { bookingId, revisionId: revision.revision_id as string, itemId: revision.booking_items[0].booking_item_id };
}

let last: { bookingId: number; revisionId: string; itemId: number };
/** Sends with a fresh sent booking, kept in `last` for the row's `stored` check. */
async function withBooking(send: (s: typeof last) => Promise<Reply>) {
  last = await sentBooking();
  return send(last);
}

async function item() {
  const [row] = await t.deps.db.sql<Record<string, unknown>>`
    select b.pms_status, b.ext_reservation_id, b.room_number, b.self_checkin_code,
      (select count(*) from legacy_customer_events e where e.booking_item_id = b.id)::int as events,
      (select count(*) from legacy_booking_revisions r where r.booking_id = b.booking_id and r.acked_at is not null)::int as acked
    from booking_rooms b where b.id = ${last.itemId}`;
  return row;
}
const untouched = {
  pms_status: null,
  ext_reservation_id: null,
  room_number: null,
  self_checkin_code: null,
  events: 0,
  acked: 0,
};

async function postedData() {
  const [row] = await t.deps.db.sql<{ ext_property_id: string; rooms: number }>`
    select ext_property_id, jsonb_array_length(mapping_data -> 'rooms_types')::int as rooms
    from legacy_pms_property_data where key_id = ${f.keyId}`;
  return row;
}
/** The demo's post (PMS-HOTEL-1 with a rooms_types entry per room) stays as it was. */
const demoPost = () => ({ ext_property_id: 'PMS-HOTEL-1', rooms: f.roomIds.length });

const extRoomId = () => (f.demo.legacy as { ext_room_ids: { ext_room_id: string }[] }).ext_room_ids[0]?.ext_room_id;
const ua = (row: Record<string, unknown>) => f.call('availability/updateAvailability', { body: { values: [row] } });
const post = (property: unknown) => f.call('property/postExternalPropertyData', { body: { property } });
const stay = { checkin_date: '2030-07-01', checkout_date: '2030-07-02', 'guests[adults]': 2 };

const rows: [string, Row][] = [
  [
    'updateAvailability: ext_room_id',
    {
      endpoint: 'availability/updateAvailability',
      send: () => ua({ ext_room_id: 'A\u0000B', date: TODAY, qty: 1 }),
      status: 404,
      body: () =>
        msg(
          `Can't find room id for the given ext room id for: {\\"ext_room_id\\":\\"A\\\\u0000B\\",\\"date\\":\\"${TODAY}\\",\\"qty\\":1}`,
        ),
    },
  ],
  [
    'updateAvailability: a mapped ext_room_id with a NUL appended',
    {
      endpoint: 'availability/updateAvailability',
      send: () => ua({ ext_room_id: `${extRoomId()}\u0000`, date: TODAY, qty: 1 }),
      status: 404,
      body: () =>
        msg(
          `Can't find room id for the given ext room id for: {\\"ext_room_id\\":\\"${extRoomId()}\\\\u0000\\",\\"date\\":\\"${TODAY}\\",\\"qty\\":1}`,
        ),
    },
  ],
  [
    'updateAvailability: date',
    {
      endpoint: 'availability/updateAvailability',
      send: () => ua({ room_id: f.roomIds[0], date: `${TODAY}\u0000`, qty: 1 }),
      status: 400,
      body: () =>
        msg(
          `Invalid date format (must be 'YYYY-MM-DD') for: {\\"room_id\\":${f.roomIds[0]},\\"date\\":\\"${TODAY}\\\\u0000\\",\\"qty\\":1}`,
        ),
    },
  ],
  [
    'getAvailability: ext_room_id',
    {
      endpoint: 'availability/getAvailability',
      send: () =>
        f.call('availability/getAvailability', {
          query: { ext_room_id: 'A\u0000B', date_from: TODAY, date_to: TODAY },
        }),
      status: 404,
      body: () => msg("Can't find room id for the given ext room id!"),
    },
  ],
  [
    'getBookings: type',
    {
      endpoint: 'booking/getBookings',
      send: () => f.call('booking/getBookings', { query: { type: 'new\u0000' } }),
      status: 400,
      body: () => msg("Invalid value for the 'type' parameter!"),
    },
  ],
  [
    'getBookings: booking_id',
    {
      endpoint: 'booking/getBookings',
      send: () => withBooking((s) => f.call('booking/getBookings', { query: { booking_id: `${s.bookingId}\u0000` } })),
      status: 200,
      body: () => '{"data":[]}',
    },
  ],
  [
    'ackBooking: revision_id',
    {
      endpoint: 'booking/ackBooking',
      send: () =>
        withBooking((s) =>
          f.call('booking/ackBooking', { body: { booking_id: s.bookingId, revision_id: `${s.revisionId}\u0000` } }),
        ),
      status: 404,
      body: () => msg('Missing booking revision!'),
      stored: item,
      holds: () => untouched,
    },
  ],
  [
    'ackBooking: ext_reservation_id (required, stored)',
    {
      endpoint: 'booking/ackBooking',
      send: () =>
        withBooking((s) =>
          f.call('booking/ackBooking', {
            body: {
              booking_id: s.bookingId,
              revision_id: s.revisionId,
              booking_items: [{ booking_item_id: s.itemId, ext_reservation_id: 'R\u00001' }],
            },
          }),
        ),
      status: 400,
      body: () => msg('Missing booking_items[].booking_item_id and\\/or booking_items[].ext_reservation_id!'),
      stored: item,
      holds: () => untouched,
    },
  ],
  [
    'ackBooking: room_number and self_checkin_code (optional, stored): as not sent',
    {
      endpoint: 'booking/ackBooking',
      send: () =>
        withBooking((s) =>
          f.call('booking/ackBooking', {
            body: {
              booking_id: s.bookingId,
              revision_id: s.revisionId,
              booking_items: [
                {
                  booking_item_id: s.itemId,
                  ext_reservation_id: 'R1',
                  room_number: '1\u00002',
                  self_checkin_code: '\u0000',
                },
              ],
            },
          }),
        ),
      status: 200,
      body: () => SUCCESS,
      stored: item,
      holds: () => ({ ...untouched, pms_status: 'sync_ok', ext_reservation_id: 'R1', acked: 1 }),
    },
  ],
  [
    'postRoomAssignment: room_number (required, stored)',
    {
      endpoint: 'booking/postRoomAssignment',
      send: () =>
        withBooking((s) =>
          f.call('booking/postRoomAssignment', {
            body: { booking_id: s.bookingId, booking_item_id: s.itemId, room_number: '10\u00001' },
          }),
        ),
      status: 400,
      body: () => msg('Bad request data! (booking_id, booking_item_id or room_number missing)'),
      stored: item,
      holds: () => untouched,
    },
  ],
  [
    'postRoomAssignment: self_checkin_code (optional, stored): as not sent',
    {
      endpoint: 'booking/postRoomAssignment',
      send: () =>
        withBooking((s) =>
          f.call('booking/postRoomAssignment', {
            body: {
              booking_id: s.bookingId,
              booking_item_id: s.itemId,
              room_number: '101',
              self_checkin_code: 'K\u0000',
            },
          }),
        ),
      status: 200,
      body: () => SUCCESS,
      stored: item,
      holds: () => ({ ...untouched, room_number: '101', events: 1 }),
    },
  ],
  [
    'postExternalPropertyData: id (stored)',
    {
      endpoint: 'property/postExternalPropertyData',
      send: () => post({ id: 'PMS\u00002', name: 'PMS hotel', mapping_data: { rooms_types: [] } }),
      status: 400,
      body: () => msg('Bad post request data!'),
      stored: postedData,
      holds: demoPost,
    },
  ],
  [
    'postExternalPropertyData: name (stored)',
    {
      endpoint: 'property/postExternalPropertyData',
      send: () => post({ id: 'PMS-2', name: '\u0000', mapping_data: { rooms_types: [] } }),
      status: 400,
      body: () => msg('Bad post request data!'),
      stored: postedData,
      holds: demoPost,
    },
  ],
  [
    'postExternalPropertyData: a code of rooms_types (stored)',
    {
      endpoint: 'property/postExternalPropertyData',
      send: () =>
        post({ id: 'PMS-2', name: 'PMS hotel', mapping_data: { rooms_types: [{ id: 'D\u0000', name: 'x' }] } }),
      status: 400,
      body: () => msg('Bad post request data!'),
      stored: postedData,
      holds: demoPost,
    },
  ],
  [
    'postExternalPropertyData: a key in beds_types (stored)',
    {
      endpoint: 'property/postExternalPropertyData',
      send: () => post({ id: 'PMS-2', name: 'PMS hotel', mapping_data: { beds_types: [{ 'id\u0000': 'B' }] } }),
      status: 400,
      body: () => msg('Bad post request data!'),
      stored: postedData,
      holds: demoPost,
    },
  ],
  [
    'getRoomsDetails: room_id',
    {
      endpoint: 'property/getRoomsDetails',
      send: () => f.call('property/getRoomsDetails', { query: { room_id: `${f.roomIds[0]}\u0000` } }),
      status: 404,
      body: () => msg(`Room with id ${f.roomIds[0]}\\u0000 not found for this property!`),
    },
  ],
  [
    'getPropertySettings: names',
    {
      endpoint: 'property/getPropertySettings',
      send: () => f.call('property/getPropertySettings', { query: { names: 'property\u0000' } }),
      status: 200,
      body: () => '{"data":{}}',
    },
  ],
  [
    'getBookingOffers: bm_code in the query',
    {
      endpoint: 'property/getBookingOffers',
      send: () => f.call('property/getBookingOffers', { query: { bm_code: 'a\u0000b', ...stay } }),
      status: 404,
      body: () => msg("Booking module 'a\\u0000b' not found or inactive."),
    },
  ],
  [
    'getBookingOffers: bm_code in a body, after a real one',
    {
      endpoint: 'property/getBookingOffers',
      send: () =>
        f.call('property/getBookingOffers', {
          method: 'POST',
          body: {
            bm_code: `${f.bmCode}\u0000`,
            checkin_date: '2030-07-01',
            checkout_date: '2030-07-02',
            guests: { adults: 2 },
          },
        }),
      status: 404,
      body: () => msg(`Booking module '${f.bmCode}\\u0000' not found or inactive.`),
    },
  ],
  [
    'any method: api_key',
    {
      endpoint: '*',
      send: () => f.call('booking/getBookings', { key: `${f.key}\u0000` }),
      status: 401,
      body: () => msg('Wrong api key'),
    },
  ],
];

describe('a NUL byte in a legacy input', () => {
  it.each(rows)('%s: the method answers its own message, as a value matching nothing', async (_name, row) => {
    const res = await row.send();
    expect({ status: res.status, body: res.text }).toEqual({ status: row.status, body: row.body() });
    if (row.stored) expect(await row.stored()).toEqual(row.holds?.());
  });

  it('is tried on every method of the table', () => {
    const tried = new Set(rows.map(([, row]) => row.endpoint));
    expect(LEGACY_ENDPOINTS.filter((endpoint) => !tried.has(endpoint))).toEqual([]);
  });
});
