import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { type LegacyFixture, legacyFixture } from '../../legacy/legacy-test-fixture.ts';
import { ManualClock } from '../core/clock.ts';
import { addDays, daysOf } from '../core/days.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { type LegacyCall, portEntries, send, serveCorpus, setMode, writeCorpus } from './cutover-test-fixture.ts';

/** Spec 9.4 and RFC 8594: the sunset date, its headers, its refusals and the 90-day rule that gates it. */
let t: TestApp;
let f: LegacyFixture;
const stops: Array<() => Promise<unknown>> = [];
const rooms: LegacyCall = { method: 'GET', path: 'property/getRoomsDetails' };
const bookings: LegacyCall = { method: 'GET', path: 'booking/getBookings' };

beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock('2027-03-01T10:00:00Z') });
  await t.deps.db.sql`delete from legacy_sunset`;
  f = await legacyFixture(t);
}, 30_000);

afterAll(async () => {
  // The sunset is one row for the whole facade: leave none behind for the suites that follow. Readiness reads
  // every credential in the database: this suite's keys, retired, hold back no later run's sunset.
  await t.deps.db.sql`delete from legacy_sunset`;
  await t.deps.db.sql`update legacy_api_keys set active = false where customer_id = ${f.customerId}`;
  for (const stop of stops) await stop();
  await t.close();
}, 30_000);

const setSunset = (body: unknown) =>
  t.ops<{ message: string; reason?: string; errors?: unknown; accepted_endpoints?: string[]; data?: any }>(
    'PUT',
    '/ops/legacy/sunset',
    body,
  );

function headersBut(headers: Headers, ...left: string[]): Array<[string, string]> {
  return [...headers].filter(([name]) => !left.includes(name.toLowerCase()));
}

describe('the legacy sunset', () => {
  it('adds Sunset to the affected endpoints only, once set, and changes nothing else', async () => {
    const before = { bookings: await send(t, bookings, f.key), rooms: await send(t, rooms, f.key) };
    expect(before.bookings.headers.get('sunset')).toBeNull();
    expect(before.bookings.headers.get('link')).toBeNull();

    expect((await setSunset({ date: '2027-09-01', endpoints: ['booking/getBookings'] })).status).toBe(200);
    const after = { bookings: await send(t, bookings, f.key), rooms: await send(t, rooms, f.key) };

    expect(after.bookings.headers.get('sunset')).toBe('Wed, 01 Sep 2027 00:00:00 GMT');
    // No migration guide configured: no Link (the API reference is not one), see cutover-router.ts.
    expect(after.bookings.headers.get('link')).toBeNull();
    expect(after.bookings.status).toBe(before.bookings.status);
    expect(after.bookings.text).toBe(before.bookings.text);
    expect(headersBut(after.bookings.headers, 'sunset', 'link')).toEqual(headersBut(before.bookings.headers));
    expect(after.rooms.headers.get('sunset')).toBeNull();
    expect(after.rooms.headers.get('link')).toBeNull();
    expect(after.rooms.text).toBe(before.rooms.text);
  });

  it('refuses a date before 2027-08-01, one under six months away, and endpoints the facade does not have', async () => {
    const early = await setSunset({ date: '2027-07-31' });
    expect(early.status).toBe(422);
    expect(early.body.message).toBe('errors.qc.sunset_date_refused');
    expect(early.body.reason).toContain('2027-08-01');

    // Today is 2027-03-01: six months on is 2027-09-01.
    const soon = await setSunset({ date: '2027-08-31' });
    expect(soon.status).toBe(422);
    expect(soon.body.reason).toContain('2027-09-01');

    const unknown = await setSunset({
      date: '2027-12-01',
      endpoints: ['booking/getBookings', 'booking/deleteBooking'],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      message: 'errors.validation_error',
      errors: { 'endpoints.1': expect.any(Array) },
    });
    // The 422 lists what it accepts (issue 28 item 18).
    expect(unknown.body.accepted_endpoints).toContain('booking/getBookings');
    expect((await setSunset({ date: '2027-02-30' })).status).toBe(422);
    // An empty list is no list of methods, not the whole facade (which is said by leaving `endpoints` out).
    const none = await setSunset({ date: '2027-12-01', endpoints: [] });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ message: 'errors.validation_error', errors: { endpoints: expect.any(Array) } });

    // Refusals left the date in force as it was.
    expect((await send(t, bookings, f.key)).headers.get('sunset')).toBe('Wed, 01 Sep 2027 00:00:00 GMT');
  });

  it('switches the affected endpoints off at the date only when every credential using them has a 90-day zero streak', async () => {
    const shadowed = await f.anotherKey();
    const other = await f.anotherKey();
    const served = await serveCorpus(await writeCorpus(await portEntries(t, [rooms], shadowed.key), shadowed.key));
    stops.push(served.stop);
    await setMode(t, shadowed.keyId, 'shadow', served.url);
    expect((await setSunset({ date: '2027-09-01', endpoints: ['property/getRoomsDetails'] })).status).toBe(200);

    // The other PMS, live, called the endpoint once, on 2027-06-10.
    t.clock.set('2027-06-10T09:00:00Z');
    await send(t, rooms, other.key);
    // The shadowed PMS every day for 92 days, the legacy service and the port agreeing each time.
    for (const date of daysOf('2027-06-01', '2027-08-31')) {
      t.clock.set(`${date}T09:00:00Z`);
      expect((await send(t, rooms, shadowed.key)).status).toBe(200);
    }
    await t.cutover.comparisons.idle();

    // The date is reached, but the other PMS used the endpoint within the last 90 days without the streak.
    t.clock.set('2027-09-01T09:00:00Z');
    const held = await send(t, rooms, shadowed.key);
    expect(held.status).toBe(200);
    expect(held.headers.get('sunset')).toBe('Wed, 01 Sep 2027 00:00:00 GMT');
    const readiness = await t.ops<{ data: ReadinessBody }>('GET', '/ops/legacy/readiness');
    const mine = readiness.body.data.credentials.filter((c) => [shadowed.keyId, other.keyId].includes(c.id));
    expect(mine).toEqual([
      expect.objectContaining({ id: shadowed.keyId, mode: 'shadow', zero_streak_days: 92, meets_rule: true }),
      expect.objectContaining({ id: other.keyId, mode: 'live', zero_streak_days: 0, meets_rule: false }),
    ]);
    expect(readiness.body.data.sunset).toMatchObject({
      reached: true,
      held_back_by: [other.keyId],
      switched_off: false,
    });

    // Nine days on, that call is older than 90 days: nobody holds the sunset back any more.
    t.clock.set(`${addDays('2027-09-01', 9)}T09:00:00Z`);
    const off = await send(t, rooms, shadowed.key);
    expect(off.status).toBe(410);
    expect(off.text).toBe('{"message":"This endpoint was retired on 2027-09-01."}');
    expect(off.headers.get('sunset')).toBe('Wed, 01 Sep 2027 00:00:00 GMT');
    expect((await send(t, bookings, f.key)).status).toBe(200);
    const after = await t.ops<{ data: ReadinessBody }>('GET', '/ops/legacy/readiness');
    expect(after.body.data.sunset).toMatchObject({ held_back_by: [], switched_off: true });
  }, 60_000);
});

interface ReadinessBody {
  credentials: Array<{ id: number; mode: string; zero_streak_days: number; meets_rule: boolean }>;
  sunset: { reached: boolean; held_back_by: number[]; switched_off: boolean } | null;
}

describe('the sunset and the keys, as a migration engineer uses them (issue 28 item 18)', () => {
  it('takes method names in any letter case, stored as the facade spells them, and can be withdrawn', async () => {
    const set = await setSunset({ date: '2028-06-01', endpoints: ['BOOKING/GETBOOKINGS', 'property/getroomsdetails'] });
    expect(set.status).toBe(200);
    expect(set.body.data.endpoints).toEqual(['booking/getBookings', 'property/getRoomsDetails']);
    expect((await send(t, bookings, f.key)).headers.get('sunset')).toBe('Thu, 01 Jun 2028 00:00:00 GMT');

    const withdrawn = await t.ops<{ data: unknown }>('DELETE', '/ops/legacy/sunset');
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data).toEqual({ withdrawn: true });
    expect((await send(t, bookings, f.key)).headers.get('sunset')).toBeNull();
    expect((await t.ops('DELETE', '/ops/legacy/sunset')).status).toBe(404);
  });

  it("finds a key's id from the api_key a PMS is configured with, and lists a property's keys", async () => {
    const byKey = await t.ops<{ data: { legacy_keys: { id: number }[]; meta: unknown } }>(
      'GET',
      `/ops/legacy-keys?api_key=${encodeURIComponent(f.key)}`,
    );
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.legacy_keys.map((k) => k.id)).toEqual([f.keyId]);
    const [shown] = byKey.body.data.legacy_keys;
    expect(shown).toEqual((await t.ops<{ data: { id: number } }>('GET', `/ops/legacy-keys/${f.keyId}`)).body.data);
    const none = await t.ops<{ data: { legacy_keys: unknown[] } }>('GET', '/ops/legacy-keys?api_key=not-a-key');
    expect(none.body.data.legacy_keys).toEqual([]);
  });
});
