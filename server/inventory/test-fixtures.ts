import type { StayRestriction } from '../../pricing/stay-sellability.ts';
import { ManualClock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Demo } from '../demo/demo.ts';
import type { Derivation } from '../rate-plans/service.ts';
import type { OccupancyEntry, SellType } from '../rate-plans/vocabulary.ts';
import { perFile, type TestApp, testAppPerFile } from '../testing/harness.ts';

/**
 * Calendar test fixtures inserted straight into the structure tables, so inventory tests do not depend on
 * how the structure routes build vocabularies, and can hold shapes those routes never produce (a child plan
 * whose parent lost the room, a pair without vocabulary).
 */
export interface Ref {
  id: number;
  external_id: string;
  partner_code: string;
}

export interface PropertyRef {
  id: number;
  external_id: string;
}

let seq = 0;
const code = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++seq}`;

export async function addRoomType(db: Db, propertyId: number, partnerCode = code('RT')): Promise<Ref> {
  const [row] = await db.sql<Ref>`
    insert into room_types (property_id, name, partner_code, qty, regular_beds, extra_beds)
    values (${propertyId}, ${`Room ${partnerCode}`}, ${partnerCode}, 5, 2, 1)
    returning id, external_id, partner_code`;
  if (!row) throw new Error('room type insert returned no row');
  return row;
}

export interface NewPlan {
  sellType: SellType;
  pairs: { roomTypeId: number; occupancies: OccupancyEntry[] }[];
  parentId?: number;
  derivation?: Derivation;
  partnerCode?: string;
}

export async function addRatePlan(db: Db, propertyId: number, plan: NewPlan): Promise<Ref> {
  const partnerCode = plan.partnerCode ?? code('RP');
  const [row] = await db.sql<Ref>`
    insert into rate_plans (property_id, name, sell_type, parent_id, derivation, partner_code)
    values (${propertyId}, ${`Plan ${partnerCode}`}, ${plan.sellType}, ${plan.parentId ?? null},
      ${plan.derivation ?? null}, ${partnerCode})
    returning id, external_id, partner_code`;
  if (!row) throw new Error('rate plan insert returned no row');
  for (const pair of plan.pairs) {
    await db.sql`insert into rate_plan_rooms (rate_plan_id, room_type_id, occupancies)
      values (${row.id}, ${pair.roomTypeId}, ${pair.occupancies}::jsonb)`;
  }
  return row;
}

export const PER_ROOM: OccupancyEntry[] = [{ code: 'ROOM', kind: 'manual' }];

/** Every kind, with a derived code resting on another derived one. */
export const PER_PERSON: OccupancyEntry[] = [
  { code: 'A1', kind: 'manual', persons: 1 },
  { code: 'A2', kind: 'manual', persons: 2 },
  { code: 'AEB', kind: 'derived', persons: 1, derived_from: 'A2', modifier: ['increase_by_amount', 15] },
  { code: 'CRB', kind: 'derived', persons: 1, derived_from: 'A1', modifier: ['decrease_by_percent', 50] },
  { code: 'TRB', kind: 'derived', persons: 1, derived_from: 'CRB', modifier: ['increase_by_percent', 10] },
  { code: 'TEB', kind: 'derived', persons: 1, derived_from: 'A1', modifier: ['decrease_by_amount', 500] },
  { code: 'CEB', kind: 'fee', persons: 1, fee: 12.5 },
  { code: 'CNB', kind: 'cost_free', persons: 1 },
  { code: 'INB', kind: 'inactive', persons: 1 },
];

export const PER_OCCUPANCY: OccupancyEntry[] = [
  { code: 'A1', kind: 'manual', persons: 1 },
  { code: 'A2', kind: 'manual', persons: 2 },
  { code: 'Apn1', kind: 'manual', persons: 1 },
  { code: 'Cpn1', kind: 'derived', persons: 1, derived_from: 'Apn1', modifier: ['decrease_by_amount', 5] },
];

export interface InventoryFixture {
  demo: Demo;
  /** The demo's account-scoped personal token: sees both properties, every scope. */
  token: string;
  live: PropertyRef;
  shadow: PropertyRef;
  rooms: { double: Ref; suite: Ref };
  plans: {
    /** per_room on both rooms. */
    room: Ref;
    /** per_person on the double room (every kind of code). */
    person: Ref;
    /** per_occupancy on the double room. */
    occupancy: Ref;
    /** Child of `room` on both rooms: -10%, -20% from the 10th to the 12th day after today. */
    child: Ref;
    /** Child of `person` on the suite, which `person` does not sell: its parent is not mapped for that room. */
    orphan: Ref;
    /** per_person on the suite with no configured vocabulary. */
    open: Ref;
  };
  shadowRoom: Ref;
  shadowPlan: Ref;
}

/** A fresh demo customer with the calendar structure above on its live property and a per_room plan on its shadow one. */
export async function inventoryFixture(
  t: TestApp,
  periodFrom = '2000-01-01',
  periodTo = '2000-01-01',
): Promise<InventoryFixture> {
  const demo = await t.demo();
  const db = t.deps.db;
  const ids = await db.sql<{ id: number; external_id: string; mode: string }>`
    select id, external_id, mode from properties where customer_id = ${demo.customer_id} order by id`;
  const live = ids.find((p) => p.mode === 'live');
  const shadow = ids.find((p) => p.mode === 'shadow');
  if (!live || !shadow) throw new Error('demo has no live and shadow property');

  const double = await addRoomType(db, live.id);
  const suite = await addRoomType(db, live.id);
  const both = (occupancies: OccupancyEntry[]) => [double, suite].map((r) => ({ roomTypeId: r.id, occupancies }));
  const room = await addRatePlan(db, live.id, { sellType: 'per_room', pairs: both(PER_ROOM) });
  const person = await addRatePlan(db, live.id, {
    sellType: 'per_person',
    pairs: [{ roomTypeId: double.id, occupancies: PER_PERSON }],
  });
  const occupancy = await addRatePlan(db, live.id, {
    sellType: 'per_occupancy',
    pairs: [{ roomTypeId: double.id, occupancies: PER_OCCUPANCY }],
  });
  const child = await addRatePlan(db, live.id, {
    sellType: 'per_room',
    parentId: room.id,
    derivation: { percent: -10, periods: [{ from: periodFrom, to: periodTo, percent: -20 }] },
    pairs: both(PER_ROOM),
  });
  const orphan = await addRatePlan(db, live.id, {
    sellType: 'per_person',
    parentId: person.id,
    derivation: { percent: 5 },
    pairs: [{ roomTypeId: suite.id, occupancies: PER_PERSON }],
  });
  const open = await addRatePlan(db, live.id, {
    sellType: 'per_person',
    pairs: [{ roomTypeId: suite.id, occupancies: [] }],
  });
  const shadowRoom = await addRoomType(db, shadow.id);
  const shadowPlan = await addRatePlan(db, shadow.id, {
    sellType: 'per_room',
    pairs: [{ roomTypeId: shadowRoom.id, occupancies: PER_ROOM }],
  });
  return {
    demo,
    token: demo.personal_token,
    live: { id: live.id, external_id: live.external_id },
    shadow: { id: shadow.id, external_id: shadow.external_id },
    rooms: { double, suite },
    plans: { room, person, occupancy, child, orphan, open },
    shadowRoom,
    shadowPlan,
  };
}

/**
 * The test app of one test file, its clock at 2026-06-15 12:00 UTC (the live property is in Europe/Lisbon, so
 * the calendar window runs 2026-06-14 .. 2028-06-15), with an inventoryFixture on it: made in beforeAll, the
 * app closed in afterAll.
 */
export function inventoryTest(periodFrom?: string, periodTo?: string): { t: TestApp; f: InventoryFixture } {
  const t = testAppPerFile({ clock: new ManualClock('2026-06-15T12:00:00Z') });
  return { t, f: perFile(() => inventoryFixture(t, periodFrom, periodTo)) };
}

/** A fresh room with a per_room and a per_person plan on it, so a test reads only its own calendar. */
export async function addRoomWithPlans(
  db: Db,
  propertyId: number,
): Promise<{ room: Ref; perRoom: Ref; perPerson: Ref }> {
  const room = await addRoomType(db, propertyId);
  const perRoom = await addRatePlan(db, propertyId, {
    sellType: 'per_room',
    pairs: [{ roomTypeId: room.id, occupancies: PER_ROOM }],
  });
  const perPerson = await addRatePlan(db, propertyId, {
    sellType: 'per_person',
    pairs: [{ roomTypeId: room.id, occupancies: PER_PERSON }],
  });
  return { room, perRoom, perPerson };
}

/** The stored restriction days of one plan and room, in date order. */
/** A stored restrictions row as storedRestrictions() reads it: the fields not named are null (not set). */
export function restrictionRow(date: string, set: Partial<Omit<StayRestriction, 'date'>> = {}): StayRestriction {
  return {
    date,
    min_los: null,
    max_los: null,
    stop_sell: null,
    closed_to_arrival: null,
    closed_to_departure: null,
    ...set,
  };
}

export function storedRestrictions(db: Db, plan: Ref, room: Ref) {
  return db.sql<StayRestriction>`select date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure from restrictions
    where rate_plan_id = ${plan.id} and room_type_id = ${room.id} order by date`;
}

/** POST /rate_plans/{plan}/rates on the fixture's live property, with its token. */
export function postPlanRates(t: TestApp, f: InventoryFixture, plan: string, values: unknown) {
  return t.request('POST', `/v1/qc/properties/${f.live.external_id}/rate_plans/${plan}/rates`, {
    token: f.token,
    body: { values },
  });
}

/** Everything a push can change for a customer: the three calendar tables and the outbox, as one comparable value. */
export async function calendarSnapshot(db: Db, customerId: number): Promise<unknown> {
  const [row] = await db.sql<{ snapshot: unknown }>`
    select jsonb_build_object(
      'availability', (select coalesce(jsonb_agg(a order by a.room_type_id, a.date), '[]') from availability a
        join room_types rt on rt.id = a.room_type_id join properties p on p.id = rt.property_id where p.customer_id = ${customerId}),
      'rates', (select coalesce(jsonb_agg(r order by r.rate_plan_id, r.room_type_id, r.date), '[]') from rates r
        join rate_plans rp on rp.id = r.rate_plan_id join properties p on p.id = rp.property_id where p.customer_id = ${customerId}),
      'restrictions', (select coalesce(jsonb_agg(r order by r.rate_plan_id, r.room_type_id, r.date), '[]') from restrictions r
        join rate_plans rp on rp.id = r.rate_plan_id join properties p on p.id = rp.property_id where p.customer_id = ${customerId}),
      'outbox', (select coalesce(jsonb_agg(o order by o.id), '[]') from outbox_events o where o.customer_id = ${customerId})
    ) as snapshot`;
  return row?.snapshot;
}
