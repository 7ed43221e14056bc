import { PropertyActors } from '../../actors/property-actors.ts';
import { buildApp } from '../app.ts';
import { ManualClock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Demo } from '../demo/demo.ts';
import { OPERATOR_TOKEN, perFile, type TestApp, testAppPerFile } from '../testing/harness.ts';

/**
 * Booking test fixtures built through HTTP on a fresh demo customer: the live property with the structure
 * step's room types and rate plans, the account-scoped personal token as the first feed consumer.
 */
export interface BookingFixture {
  demo: Demo;
  /** External id of the live property. */
  property: string;
  /** Its internal id. */
  propertyId: number;
  /** External id of the shadow property. */
  shadow: string;
  /** Room types of the live property: [double room, family apartment]. */
  rooms: { id: string; partner_code: string }[];
  /** The per_room plan on each room type: same index as `rooms`. */
  plans: string[];
  /** Personal token (all scopes, both properties). */
  token: string;
  /** The shadow property's room type and its per_room plan. */
  shadowRoom: string;
  shadowPlan: string;
}

export async function bookingFixture(t: TestApp): Promise<BookingFixture> {
  const demo = await t.demo();
  const [live, shadow] = demo.properties;
  if (!live || !shadow) throw new Error('the demo has a live and a shadow property');
  const rooms = live.room_types.map((r) => ({ id: r.id, partner_code: r.partner_code as string }));
  const plans = rooms.map((r) => {
    const plan = live.rate_plans.find(
      (p) => p.room_type_id === r.id && p.sell_type === 'per_room' && !p.parent_rate_plan_id,
    );
    if (!plan) throw new Error('demo has no per_room plan');
    return plan.id;
  });
  return {
    demo,
    property: live.external_property_id,
    propertyId: await internalId(t, live.external_property_id),
    shadow: demo.properties[1]?.external_property_id as string,
    rooms,
    plans,
    token: demo.personal_token,
    shadowRoom: shadow.room_types[0]?.id as string,
    shadowPlan: shadow.rate_plans[0]?.id as string,
  };
}

async function internalId(t: TestApp, external: string): Promise<number> {
  const [row] = await t.deps.db.sql<{ id: number }>`select id from properties where external_id = ${external}`;
  return row?.id as number;
}

/**
 * The test app of one test file on a ManualClock at 2026-06-15 10:00 UTC (the tests move it), with a
 * bookingFixture on it: made in beforeAll, the app closed in afterAll.
 */
export function bookingTest(): { t: TestApp; clock: ManualClock; fx: BookingFixture } {
  const clock = new ManualClock('2026-06-15T10:00:00Z');
  const t = testAppPerFile({ clock });
  return { t, clock, fx: perFile(() => bookingFixture(t)) };
}

export interface OpsBookingInput {
  channel?: string;
  checkin_date?: string;
  checkout_date?: string;
  room?: number;
  qty?: number;
  amount?: number;
  tentative?: boolean;
  guest?: Record<string, string>;
  [field: string]: unknown;
}

/** POST /ops/bookings on the fixture's live property; returns the operator view (clear fields, revisions). */
export async function opsBooking(t: TestApp, fx: BookingFixture, input: OpsBookingInput = {}) {
  const { channel, checkin_date, checkout_date, room, qty, amount, tentative, guest, ...rest } = input;
  const res = await t.ops('POST', '/ops/bookings', {
    property_id: fx.property,
    channel: channel ?? 'QDO',
    guest: guest ?? {
      first_name: 'Ann',
      last_name: 'Smith',
      email: 'ann.smith@example.com',
      phone: '+351 912 345 678',
    },
    checkin_date: checkin_date ?? '2026-07-10',
    checkout_date: checkout_date ?? '2026-07-12',
    rooms: [{ room_type_id: fx.rooms[room ?? 0]?.id, rate_plan_id: fx.plans[room ?? 0], qty: qty ?? 1 }],
    total_price: { amount: amount ?? 240 },
    tentative,
    ...rest,
  });
  if (res.status !== 200) throw new Error(`ops booking failed: ${res.status} ${res.text}`);
  return res.body.data as {
    id: number;
    external_booking_id: string;
    status: string;
    revision_id: number | null;
    revisions: { id: number; revision_type: string }[];
  };
}

/** Pushes `free` rooms for the fixture's room type over [from, to] through the partner inventory API. */
export async function pushFree(t: TestApp, fx: BookingFixture, room: number, from: string, to: string, free: number) {
  const res = await t.request('POST', `/v1/qc/properties/${fx.property}/inventory/availability`, {
    token: fx.token,
    body: { values: [{ room_type_id: fx.rooms[room]?.id, date_from: from, date_to: to, availability: free }] },
  });
  if (res.status !== 202) throw new Error(`availability push failed: ${res.status} ${res.text}`);
}

/** Free rooms per date of one room type, as GET /properties/{ext}/availability answers them. */
export async function freeRooms(
  t: TestApp,
  fx: BookingFixture,
  room: number,
  from: string,
  to: string,
): Promise<Record<string, number>> {
  const res = await t.request('GET', `/v1/qc/properties/${fx.property}/availability`, {
    token: fx.token,
    query: { from, to },
  });
  if (res.status !== 200) throw new Error(`availability read failed: ${res.status} ${res.text}`);
  const rooms = res.body.data.rooms as { room_type_id: string; dates: Record<string, number> }[];
  return rooms.find((r) => r.room_type_id === fx.rooms[room]?.id)?.dates ?? {};
}

/** Outbox events of a property, oldest first. */
export async function bookingEvents(t: TestApp, propertyId: number) {
  return t.deps.db.sql<{ type: string; data: Record<string, unknown> }>`
    select type, data from outbox_events where property_id = ${propertyId} and type like 'booking.%' order by id`;
}

/** A POST /bookings body for the fixture's live property (one double room, 2026-11-10..12). */
export function partnerBody(f: BookingFixture, over: Record<string, unknown> = {}) {
  return {
    property_id: f.property,
    source_channel: 'QDO',
    guest: { first_name: 'Pia', last_name: 'Lund', email: 'pia@example.com', phone: '+4512345678' },
    checkin_date: '2026-11-10',
    checkout_date: '2026-11-12',
    rooms: [{ room_type_id: f.rooms[0]?.id, rate_plan_id: f.plans[0], qty: 1, adults: 2 }],
    total_price: { amount: 250, currency: 'EUR' },
    ...over,
  };
}

/**
 * An app on the test app's dependencies but another database handle (see server/testing/intercept-statements.ts), which the
 * property actors' turns use too; nothing to close.
 */
export function appOver(t: TestApp, db: Db) {
  const app = buildApp({ ...t.deps, db, actors: new PropertyActors(db) }, { operatorToken: OPERATOR_TOKEN });
  return (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}
