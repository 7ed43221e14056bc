import type { LegacyDemo } from './legacy-port.ts';

/**
 * What a PMS sends the legacy facade, one call after the other, through `base` (the port, or a recording proxy
 * in front of it). `replayable` calls answer the same every time they are sent in this order once `settle` has
 * run: reads, plus writes that set absolute values (updateAvailability, postExternalPropertyData). `acks` are what a replay against the same state cannot repeat:
 * ackBooking (a second ack answers "The ack was already sent!") and the getBookings that follows it.
 */
export interface SessionCall {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: string;
}

export function legacyUrl(base: string, apiKey: string, call: SessionCall): string {
  const query = new URLSearchParams({ api_key: apiKey, ...call.query }).toString();
  return `${base}/api/pms/v1/${call.path}?${query}`;
}

export async function send(base: string, apiKey: string, call: SessionCall): Promise<Response> {
  return fetch(legacyUrl(base, apiKey, call), {
    method: call.method,
    body: call.body,
    headers: call.body ? { 'content-type': 'application/json' } : {},
  });
}

/** Today plus `days`, as YYYY-MM-DD (UTC). */
export function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export function replayableCalls(demo: LegacyDemo): SessionCall[] {
  const [room, other] = demo.room_ids as [number, number];
  const current = demo.bookings.find((b) => b.generation === 'current')?.booking_id ?? 0;
  return [
    {
      method: 'GET',
      path: 'property/getPropertySettings',
      query: { names: 'property,rooms,rates,meal_plans,booking_modules' },
    },
    { method: 'GET', path: 'property/getRoomsDetails', query: { room_id: String(room) } },
    {
      method: 'POST',
      path: 'property/postExternalPropertyData',
      body: JSON.stringify({
        property: {
          id: 'PMS-HOTEL-1',
          name: 'Seaside (PMS)',
          mapping_data: { rooms_types: demo.ext_room_ids.map((e) => ({ id: e.ext_room_id, name: e.ext_room_id })) },
        },
      }),
    },
    { method: 'GET', path: 'availability/getAvailability', query: { date_from: day(10), date_to: day(12) } },
    {
      method: 'POST',
      path: 'availability/updateAvailability',
      body: JSON.stringify({
        values: [
          { room_id: room, date_from: day(10), date_to: day(11), qty: 3 },
          { ext_room_id: demo.ext_room_ids[1]?.ext_room_id, date: day(12), closed: true },
        ],
      }),
    },
    { method: 'GET', path: 'availability/getAvailability', query: { date_from: day(10), date_to: day(12) } },
    {
      method: 'GET',
      path: 'property/getBookingOffers',
      query: { bm_code: demo.bm_code, checkin_date: day(10), checkout_date: day(12), 'guests[adults]': '2' },
    },
    { method: 'GET', path: 'booking/getBookings' },
    { method: 'GET', path: 'booking/getBookings', query: { booking_id: String(current) } },
    { method: 'GET', path: 'property/getRoomsDetails', query: { room_id: String(other) } },
    { method: 'GET', path: 'booking/getBookings', query: { type: 'sideways' } },
    { method: 'GET', path: 'property/getNothing' },
  ];
}

/**
 * Sends the replayable calls once, directly: the state they leave is then the state they start from (their
 * writes set absolute values), so recording them afterwards and replaying that recording must match exactly.
 */
export async function settle(base: string, demo: LegacyDemo): Promise<void> {
  for (const call of replayableCalls(demo)) await (await send(base, demo.api_key, call)).arrayBuffer();
}

/**
 * The non-replayable tail: room assignment, then ack of every booking getBookings sent (with the revision ids it
 * sent), getBookings again (now empty), and a second ack of the first (refused).
 */
export async function ackCalls(base: string, demo: LegacyDemo): Promise<SessionCall[]> {
  const res = await send(base, demo.api_key, { method: 'GET', path: 'booking/getBookings' });
  const sent = (
    (await res.json()) as {
      data: Array<{ booking_id: number; revision_id: string; booking_items: Array<{ booking_item_id: number }> }>;
    }
  ).data;
  const calls: SessionCall[] = [];
  const first = sent[0];
  if (first) {
    calls.push({
      method: 'POST',
      path: 'booking/postRoomAssignment',
      body: JSON.stringify({
        booking_id: first.booking_id,
        booking_item_id: first.booking_items[0]?.booking_item_id,
        room_number: '101',
      }),
    });
  }
  for (const booking of sent) {
    calls.push({
      method: 'POST',
      path: 'booking/ackBooking',
      body: JSON.stringify({
        booking_id: booking.booking_id,
        revision_id: booking.revision_id,
        booking_items: booking.booking_items.map((item, i) => ({
          booking_item_id: item.booking_item_id,
          ext_reservation_id: `PMS-${booking.booking_id}-${i + 1}`,
        })),
      }),
    });
  }
  calls.push({ method: 'GET', path: 'booking/getBookings' });
  if (first) calls.push(calls[1] as SessionCall);
  return calls;
}
