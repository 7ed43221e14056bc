import { beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { testAppPerFile } from '../testing/harness.ts';
import {
  type BookingFixture,
  bookingEvents,
  bookingFixture,
  freeRooms,
  opsBooking,
  pushFree,
} from './test-fixtures.ts';

const clock = new ManualClock('2026-06-15T10:00:00Z');

const t = testAppPerFile({ clock });

async function revisionsOf(bookingId: number) {
  return t.deps.db.sql<{ id: number; revision_type: string; payload: Record<string, any> }>`
    select id, revision_type, payload from booking_revisions where booking_id = ${bookingId} order by id`;
}

describe('operator intake and the booking state machine', () => {
  let fx: BookingFixture;
  beforeAll(async () => {
    fx = await bookingFixture(t);
  });

  it('creates a booking with one created revision holding a full masked snapshot and one booking.created event', async () => {
    const b = await opsBooking(t, fx, { channel: 'BDC', qty: 2, amount: 480 });
    expect(b.id).toBeGreaterThanOrEqual(161300);
    expect(b.external_booking_id).toBe(String(b.id));
    const revisions = await revisionsOf(b.id);
    expect(revisions.map((r) => r.revision_type)).toEqual(['created']);
    const payload = revisions[0]?.payload as Record<string, any>;
    expect(payload).toMatchObject({
      external_booking_id: String(b.id),
      external_revision_id: null,
      source_channel: 'BDC',
      guest_first_name: 'Ann',
      guest_last_name: 'S.',
      guest_email: 'a********************',
      guest_phone: '**********78',
      checkin_date: '2026-07-10',
      checkout_date: '2026-07-12',
      nights: 2,
      currency_code: 'EUR',
      total_price: { amount: 480, currency: 'EUR' },
      extras: [],
      processing_state: 'processed',
      no_show_at: null,
      cancelled_at: null,
      status: 'confirmed',
    });
    expect(payload.rooms).toEqual([
      expect.objectContaining({ qty: 2, external_room_type_id: fx.rooms[0]?.id, external_rate_plan_id: fx.plans[0] }),
    ]);
    expect(typeof payload.rooms[0].room_id).toBe('number');
    expect(payload.cancellation).toBeUndefined();
    const events = (await bookingEvents(t, fx.propertyId)).filter((e) => e.data.booking_id === String(b.id));
    expect(events).toEqual([
      {
        type: 'booking.created',
        data: {
          booking_id: String(b.id),
          revision_id: revisions[0]?.id,
          checkin_date: '2026-07-10',
          checkout_date: '2026-07-12',
        },
      },
    ]);
  });

  it('holds rooms: free rooms drop by the booked qty, modifications move the difference, cancellation gives them back', async () => {
    const f = await bookingFixture(t);
    await pushFree(t, f, 1, '2026-08-01', '2026-08-10', 3);
    const b = await opsBooking(t, f, { room: 1, qty: 2, checkin_date: '2026-08-02', checkout_date: '2026-08-04' });
    expect(await freeRooms(t, f, 1, '2026-08-01', '2026-08-05')).toEqual({
      '2026-08-01': 3,
      '2026-08-02': 1,
      '2026-08-03': 1,
      '2026-08-04': 3,
      '2026-08-05': 3,
    });
    // A later push of free rooms counts on top of what is booked.
    await pushFree(t, f, 1, '2026-08-02', '2026-08-02', 2);
    expect((await freeRooms(t, f, 1, '2026-08-02', '2026-08-02'))['2026-08-02']).toBe(2);
    const mod = await t.ops('PATCH', `/ops/bookings/${b.id}`, {
      checkout_date: '2026-08-05',
      rooms: [{ room_type_id: f.rooms[1]?.id, rate_plan_id: f.plans[1], qty: 1 }],
    });
    expect(mod.status).toBe(200);
    expect(await freeRooms(t, f, 1, '2026-08-01', '2026-08-05')).toEqual({
      '2026-08-01': 3,
      '2026-08-02': 3,
      '2026-08-03': 2,
      '2026-08-04': 2,
      '2026-08-05': 3,
    });
    await t.ops('POST', `/ops/bookings/${b.id}/cancel`, { cancelled_by: 'guest', reason_code: 'change_of_plans' });
    expect(await freeRooms(t, f, 1, '2026-08-01', '2026-08-05')).toEqual({
      '2026-08-01': 3,
      '2026-08-02': 4,
      '2026-08-03': 3,
      '2026-08-04': 3,
      '2026-08-05': 3,
    });
  });

  it('a booking on nights nobody pushed holds them with nothing offered; cancelling it frees nothing that was never offered', async () => {
    const f = await bookingFixture(t);
    const b = await opsBooking(t, f, { checkin_date: '2026-09-01', checkout_date: '2026-09-02' });
    const night = async () =>
      (
        await t.deps.db.sql`select offered, booked from availability a join room_types rt on rt.id = a.room_type_id
      where rt.external_id = ${f.rooms[0]?.id} and a.date = '2026-09-01'`
      )[0];
    expect(await night()).toEqual({ offered: 0, booked: 1 });
    expect(await freeRooms(t, f, 0, '2026-09-01', '2026-09-01')).toEqual({ '2026-09-01': 0 });
    await t.ops('POST', `/ops/bookings/${b.id}/cancel`, { cancelled_by: 'system', reason_code: 'test' });
    expect(await night()).toEqual({ offered: 0, booked: 0 });
    expect(await freeRooms(t, f, 0, '2026-09-01', '2026-09-01')).toEqual({ '2026-09-01': 0 });
    // Free rooms pushed while a booking holds one come on top of it; the no-show gives that room back.
    const b2 = await opsBooking(t, f, { checkin_date: '2026-09-01', checkout_date: '2026-09-02' });
    await pushFree(t, f, 0, '2026-09-01', '2026-09-01', 2);
    expect(await night()).toEqual({ offered: 3, booked: 1 });
    await t.ops('POST', `/ops/bookings/${b2.id}/no-show`);
    expect(await freeRooms(t, f, 0, '2026-09-01', '2026-09-01')).toEqual({ '2026-09-01': 3 });
  });

  it('a material modification appends one modified revision with the full new snapshot; identical values and comments append none', async () => {
    const b = await opsBooking(t, fx);
    const same = await t.ops('PATCH', `/ops/bookings/${b.id}`, {
      checkin_date: '2026-07-10',
      total_price: { amount: 240 },
    });
    expect(same.body.data.revision_id).toBeNull();
    const comment = await t.ops('PATCH', `/ops/bookings/${b.id}`, { comment: 'late arrival, keep the room' });
    expect(comment.body.data).toMatchObject({ revision_id: null, internal_comment: 'late arrival, keep the room' });
    const changed = await t.ops('PATCH', `/ops/bookings/${b.id}`, {
      guest: { email: 'new@example.com' },
      total_price: { amount: 260 },
    });
    expect(changed.body.data.revision_id).toEqual(expect.any(Number));
    const revisions = await revisionsOf(b.id);
    expect(revisions.map((r) => r.revision_type)).toEqual(['created', 'modified']);
    expect(revisions[1]?.payload).toMatchObject({
      guest_email: 'n**************',
      total_price: { amount: 260, currency: 'EUR' },
      checkin_date: '2026-07-10',
      rooms: [expect.objectContaining({ qty: 1 })],
    });
    expect(revisions[1]?.payload).not.toHaveProperty('internal_comment');
    const types = (await bookingEvents(t, fx.propertyId))
      .filter((e) => e.data.booking_id === String(b.id))
      .map((e) => e.type);
    expect(types).toEqual(['booking.created', 'booking.modified']);
  });

  it('confirms a tentative booking once; a repeat confirm is a no-op', async () => {
    const b = await opsBooking(t, fx, { tentative: true });
    expect(b.status).toBe('tentative');
    const first = await t.ops('POST', `/ops/bookings/${b.id}/confirm`);
    expect(first.body.data).toMatchObject({ status: 'confirmed', revision_id: expect.any(Number) });
    const again = await t.ops('POST', `/ops/bookings/${b.id}/confirm`);
    expect(again.body.data.revision_id).toBeNull();
    expect((await revisionsOf(b.id)).map((r) => r.revision_type)).toEqual(['created', 'confirmed']);
  });

  it('cancels with the cancellation block (who, why, policy snapshot from booking time, fee); a repeat is a no-op', async () => {
    const b = await opsBooking(t, fx);
    clock.advance(60_000);
    const res = await t.ops('POST', `/ops/bookings/${b.id}/cancel`, {
      cancelled_by: 'guest',
      reason_code: 'illness',
      fee_charged: 40,
    });
    expect(res.status).toBe(200);
    const again = await t.ops('POST', `/ops/bookings/${b.id}/cancel`, {
      cancelled_by: 'hotelier',
      reason_code: 'other',
    });
    expect(again.body.data.revision_id).toBeNull();
    const revisions = await revisionsOf(b.id);
    expect(revisions.map((r) => r.revision_type)).toEqual(['created', 'cancelled']);
    const cancelled = revisions[1]?.payload as Record<string, any>;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled_at).toBe(clock.now().toISOString());
    expect(cancelled.cancellation).toMatchObject({
      cancelled_at: clock.now().toISOString(),
      cancelled_by: 'guest',
      reason_code: 'illness',
      fee_charged: 40,
    });
    expect(cancelled.cancellation.policy_snapshot).toMatchObject({
      rate_plan_id: fx.plans[0],
      taken_at: new Date(clock.now().getTime() - 60_000).toISOString(),
      payment_policy: expect.objectContaining({ pay_type: expect.any(String) }),
      cancellation_policy: expect.objectContaining({ rules: expect.any(Array) }),
    });
    const types = (await bookingEvents(t, fx.propertyId))
      .filter((e) => e.data.booking_id === String(b.id))
      .map((e) => e.type);
    expect(types).toEqual(['booking.created', 'booking.cancelled']);
  });

  it('records a no-show once with no_show_at; a repeat is a no-op', async () => {
    const b = await opsBooking(t, fx);
    await t.ops('POST', `/ops/bookings/${b.id}/no-show`);
    const again = await t.ops('POST', `/ops/bookings/${b.id}/no-show`);
    expect(again.body.data.revision_id).toBeNull();
    const revisions = await revisionsOf(b.id);
    expect(revisions.map((r) => r.revision_type)).toEqual(['created', 'no_show']);
    expect(revisions[1]?.payload.no_show_at).toBe(clock.now().toISOString());
  });

  it('takes explicit old-generation ids below 161300 and refuses ids from the generated range', async () => {
    const id = 100000 + Math.floor(Math.random() * 60000);
    const b = await opsBooking(t, fx, { id });
    expect(b.id).toBe(id);
    const refused = await t.ops('POST', '/ops/bookings', {
      property_id: fx.property,
      channel: 'QDO',
      guest: {},
      checkin_date: '2026-07-10',
      checkout_date: '2026-07-11',
      rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0] }],
      total_price: { amount: 1 },
      id: 161300,
    });
    expect(refused.status).toBe(422);
  });

  it('seeds existing bookings silently: no revisions, no events, rooms held, a re-run imports nothing twice', async () => {
    const f = await bookingFixture(t);
    await pushFree(t, f, 0, '2026-10-01', '2026-10-03', 5);
    const seed = {
      property_id: f.property,
      bookings: [
        {
          channel: 'BDC',
          channel_reference: 'BDC-OLD-1',
          guest: { first_name: 'Old' },
          checkin_date: '2026-10-01',
          checkout_date: '2026-10-03',
          rooms: [{ room_type_id: f.rooms[0]?.partner_code, rate_plan_id: f.plans[0], qty: 2 }],
          total_price: { amount: 300 },
        },
        {
          channel: 'QDB',
          external_booking_id: `SEED-${f.propertyId}`,
          status: 'cancelled',
          guest: {},
          checkin_date: '2026-10-01',
          checkout_date: '2026-10-02',
          rooms: [{ room_type_id: f.rooms[0]?.id, rate_plan_id: f.plans[0] }],
          total_price: { amount: 100 },
        },
      ],
    };
    const first = await t.ops('POST', '/ops/bookings/seed', seed);
    expect(first.body.data.seeded).toBe(2);
    const again = await t.ops('POST', '/ops/bookings/seed', seed);
    expect(again.body.data.seeded).toBe(0);
    const [counts] = await t.deps.db.sql<{ revisions: number; events: number; bookings: number }>`
      with seeded as (select id, external_booking_id from bookings where property_id = ${f.propertyId} and seeded)
      select (select count(*)::int from booking_revisions where booking_id in (select id from seeded)) as revisions,
        (select count(*)::int from outbox_events where property_id = ${f.propertyId} and type like 'booking.%'
          and data->>'booking_id' in (select external_booking_id from seeded)) as events,
        (select count(*)::int from seeded) as bookings`;
    expect(counts).toEqual({ revisions: 0, events: 0, bookings: 2 });
    expect(await freeRooms(t, f, 0, '2026-10-01', '2026-10-03')).toEqual({
      '2026-10-01': 3,
      '2026-10-02': 3,
      '2026-10-03': 5,
    });
  });
});
