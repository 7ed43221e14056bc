import { createBooking, type NewBooking } from '../server/bookings/intake.ts';
import { sha256Hex } from '../server/core/auth/secrets.ts';
import { ManualClock } from '../server/core/clock.ts';
import type { Demo } from '../server/demo/demo.ts';
import { createLegacyKey } from '../server/legacy-cutover/legacy-keys.ts';
import { perFile, type Reply, type TestApp, testAppPerFile } from '../server/testing/harness.ts';

/**
 * Test support for the legacy facade: a test app on a fixed clock (so the legacy windows are predictable)
 * and, per test, a fresh demo customer with its structure, plus helpers to call `/api/pms/v1`.
 * Property-local "today" of the demo's live property (Europe/Lisbon) is TODAY.
 */
export const NOW = '2030-06-15T10:00:00Z';
export const TODAY = '2030-06-15';

/** The legacy test app of one test file: started in beforeAll, closed in afterAll. */
export function legacyTestAppPerFile(): TestApp {
  return testAppPerFile({ clock: new ManualClock(NOW) });
}

/** A legacy test app of one test file with one fixture on it, for suites whose tests share a customer. */
export function legacyTest(): { t: TestApp; f: LegacyFixture } {
  const t = legacyTestAppPerFile();
  return { t, f: perFile(() => legacyFixture(t)) };
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  raw?: string;
  /** Another api key than the fixture's; `null` sends none. */
  key?: string | null;
  method?: string;
  headers?: Record<string, string>;
}

export interface LegacyFixture {
  t: TestApp;
  demo: Demo;
  key: string;
  keyId: number;
  propertyId: number;
  /** The live property's external id (modern API paths). */
  propertyExt: string;
  /** Its booking module code (getBookingOffers `bm_code`). */
  bmCode: string;
  customerId: number;
  /** Internal ids (legacy room ids) of the live property's room types, in creation order. */
  roomIds: number[];
  /** Internal ids of the live property's per_room plan ("BAR") and its -10% child ("NRF"). */
  barPlanId: number;
  childPlanId: number;
  /** Internal id of the live property's per_person plan ("PP"). */
  perPersonPlanId: number;
  /** `{epClass}/{epMethod}` with the fixture's key unless told otherwise. */
  call(path: string, options?: CallOptions): Promise<Reply>;
  /** A booking on the live property through the bookings domain (one BAR room on the first room type). */
  book(overrides?: Partial<NewBooking>): Promise<number>;
  /** One more legacy key on the live property (a second PMS). */
  anotherKey(active?: boolean): Promise<{ key: string; keyId: number }>;
}

export async function legacyFixture(t: TestApp): Promise<LegacyFixture> {
  const demo = await t.demo();
  const db = t.deps.db;
  const [key] = await db.sql<{ id: number; property_id: number; customer_id: number }>`
    select id, property_id, customer_id from legacy_api_keys where key_hash = ${sha256Hex(demo.legacy_api_key)}`;
  if (!key) throw new Error('demo legacy key not found');
  const rooms = await db.sql<{
    id: number;
  }>`select id from room_types where property_id = ${key.property_id} order by id`;
  const plans = await db.sql<{
    id: number;
    partner_code: string;
  }>`select id, partner_code from rate_plans where property_id = ${key.property_id}`;
  const planId = (code: string) => plans.find((p) => p.partner_code === code)?.id as number;
  const [property] = await db.sql<{
    external_id: string;
  }>`select external_id from properties where id = ${key.property_id}`;
  const fixture: LegacyFixture = {
    t,
    demo,
    key: demo.legacy_api_key,
    keyId: key.id,
    propertyId: key.property_id,
    propertyExt: property?.external_id as string,
    bmCode: (demo.legacy as { bm_code: string }).bm_code,
    customerId: key.customer_id,
    roomIds: rooms.map((r) => r.id),
    barPlanId: planId('BAR'),
    childPlanId: planId('NRF'),
    perPersonPlanId: planId('PP'),
    call: (path, o = {}) => {
      const apiKey = o.key === undefined ? fixture.key : o.key;
      const query = { ...(apiKey === null ? {} : { api_key: apiKey }), ...o.query };
      return t.request(
        o.method ?? (o.body !== undefined || o.raw !== undefined ? 'POST' : 'GET'),
        `/api/pms/v1/${path}`,
        {
          query,
          body: o.body,
          raw: o.raw,
          headers: o.headers,
        },
      );
    },
    book: async (overrides = {}) => {
      const result = await createBooking(t.deps, {
        propertyId: key.property_id,
        channel: 'BDC',
        guest: { firstName: 'Ana', lastName: 'Sousa', email: 'ana@example.com', phone: '+351911111111' },
        checkinDate: '2030-07-01',
        checkoutDate: '2030-07-03',
        rooms: [{ roomTypeId: rooms[0]?.id as number, ratePlanId: planId('BAR'), adults: 2 }],
        totalPrice: 240,
        ...overrides,
      });
      return result.booking.id;
    },
    anotherKey: async (active = true) => {
      const another = await createLegacyKey(t.deps, {
        customerId: key.customer_id,
        propertyId: key.property_id,
        active,
        pmsName: 'second-pms',
      });
      return { key: another.apiKey, keyId: another.id };
    },
  };
  return fixture;
}

/** A fresh booking id below 161300 (old generation), unique across tests and demos. */
export async function oldBookingId(t: TestApp): Promise<number> {
  const [row] = await t.deps.db.sql<{ id: number }>`select nextval('legacy_demo_old_booking_ids') as id`;
  return row?.id as number;
}
