import { describe, expect, it } from 'bun:test';
import { validationEnvelope } from '../testing/error-envelope.ts';
import { bookingEvents, bookingFixture, bookingTest, opsBooking } from './test-fixtures.ts';

const { t, fx, clock } = bookingTest();

const path = (booking: string, action = '') => `/v1/qc/properties/${fx.property}/bookings/${booking}${action}`;

async function revisionTypes(bookingId: number) {
  return (
    await t.deps.db.sql<{
      revision_type: string;
    }>`select revision_type from booking_revisions where booking_id = ${bookingId} order by id`
  ).map((r) => r.revision_type);
}

describe('one booking', () => {
  it('GET shows the booking as it stands, masked, with status and rooms; by partner code of the property too', async () => {
    const b = await opsBooking(t, fx, { channel: 'EXP', qty: 2 });
    const res = await t.request('GET', path(b.external_booking_id), { token: fx.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      external_booking_id: b.external_booking_id,
      inbound_booking_id: b.id,
      status: 'confirmed',
      source_channel: 'EXP',
      guest_last_name: 'S.',
      guest_email: 'a********************',
      guest_phone: '**********78',
      rooms: [
        { qty: 2, external_room_type_id: fx.rooms[0]?.id, external_rate_plan_id: fx.plans[0], room_number: null },
      ],
    });
    const code = fx.demo.properties[0]?.partner_code as string;
    const byCode = await t.request('GET', `/v1/qc/properties/${code}/bookings/${b.external_booking_id}`, {
      token: fx.token,
    });
    expect(byCode.body.data.inbound_booking_id).toBe(b.id);
    expect((await t.request('GET', path('nope'), { token: fx.token })).status).toBe(404);
  });

  it('POST cancel cancels as the hotelier with a cancelled revision, and a repeat answers the same booking with no new revision', async () => {
    const b = await opsBooking(t, fx);
    const res = await t.request('POST', path(b.external_booking_id, '/cancel'), {
      token: fx.token,
      body: { reason_code: 'overbooked', fee_charged: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'cancelled',
      cancelled_at: clock.now().toISOString(),
      cancellation: {
        cancelled_by: 'hotelier',
        reason_code: 'overbooked',
        fee_charged: 0,
        policy_snapshot: expect.any(Object),
      },
    });
    clock.advance(1000);
    const again = await t.request('POST', path(b.external_booking_id, '/cancel'), { token: fx.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
    expect(await revisionTypes(b.id)).toEqual(['created', 'cancelled']);
  });

  it('POST cancel without a body uses reason partner_request', async () => {
    const b = await opsBooking(t, fx);
    const res = await t.request('POST', path(b.external_booking_id, '/cancel'), { token: fx.token });
    expect(res.body.data.cancellation).toMatchObject({
      reason_code: 'partner_request',
      cancelled_by: 'hotelier',
      fee_charged: 0,
    });
  });

  it('POST no_show records the no-show once', async () => {
    const b = await opsBooking(t, fx);
    const res = await t.request('POST', path(b.external_booking_id, '/no_show'), { token: fx.token });
    expect(res.body.data).toMatchObject({ status: 'no_show', no_show_at: clock.now().toISOString() });
    expect((await t.request('POST', path(b.external_booking_id, '/no_show'), { token: fx.token })).status).toBe(200);
    expect(await revisionTypes(b.id)).toEqual(['created', 'no_show']);
  });
});

describe('GET /properties/{ext}/bookings/health', () => {
  it('is green with nothing pending, yellow while a revision waits, and reports the lag of the oldest unacked revision', async () => {
    const f = await bookingFixture(t);
    const { token } = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [f.property],
    });
    const health = async () =>
      (await t.request('GET', `/v1/qc/properties/${f.property}/bookings/health`, { token })).body.data;
    // Acknowledge whatever the demo already booked, then start clean.
    for (const r of (await t.request('GET', '/v1/qc/booking_revisions/feed', { token })).body.data.booking_revisions) {
      await t.request('POST', `/v1/qc/booking_revisions/${r.id}/ack`, { token });
    }
    const green = await health();
    expect(green).toMatchObject({ pending_revisions_count: 0, ack_lag_seconds: 0, status: 'green' });
    const b = await opsBooking(t, f);
    expect(await health()).toEqual({
      last_revision_at: clock.now().toISOString(),
      pending_revisions_count: 1,
      ack_lag_seconds: 0,
      status: 'yellow',
    });
    clock.advance(90_000);
    expect(await health()).toMatchObject({ pending_revisions_count: 1, ack_lag_seconds: 90, status: 'yellow' });
    await t.request('POST', `/v1/qc/booking_revisions/${b.revision_id}/ack`, { token });
    expect(await health()).toEqual({
      last_revision_at: new Date(clock.now().getTime() - 90_000).toISOString(),
      pending_revisions_count: 0,
      ack_lag_seconds: 0,
      status: 'green',
    });
  });

  it("is per consumer: another consumer's acks do not make it green", async () => {
    const f = await bookingFixture(t);
    const one = (
      await t.client({ customer_id: f.demo.customer_id, scopes: ['bookings.read'], property_ids: [f.property] })
    ).token;
    const two = (
      await t.client({ customer_id: f.demo.customer_id, scopes: ['bookings.read'], property_ids: [f.property] })
    ).token;
    await opsBooking(t, f);
    for (const r of (await t.request('GET', '/v1/qc/booking_revisions/feed', { token: one })).body.data
      .booking_revisions) {
      await t.request('POST', `/v1/qc/booking_revisions/${r.id}/ack`, { token: one });
    }
    const h = async (token: string) =>
      (await t.request('GET', `/v1/qc/properties/${f.property}/bookings/health`, { token })).body.data.status;
    expect(await h(one)).toBe('green');
    expect(await h(two)).toBe('yellow');
  });
});

describe('POST /bookings/{id}/room-assignment', () => {
  it('stores room number and self-check-in code, records booking.assigned and appends no revision', async () => {
    const b = await opsBooking(t, fx);
    const res = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/room-assignment`, {
      token: fx.token,
      body: { room_number: '204', self_checkin_code: '7781' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.rooms[0].room_number).toBe('204');
    const [item] = await t.deps.db
      .sql`select room_number, self_checkin_code from booking_rooms where booking_id = ${b.id}`;
    expect(item).toEqual({ room_number: '204', self_checkin_code: '7781' });
    expect(await revisionTypes(b.id)).toEqual(['created']);
    const events = (await bookingEvents(t, fx.propertyId)).filter((e) => e.data.booking_id === b.external_booking_id);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.assigned']);
    expect(events[1]?.data).toEqual({
      booking_id: b.external_booking_id,
      revision_id: b.revision_id,
      checkin_date: '2026-07-10',
      checkout_date: '2026-07-12',
    });
  });

  it('needs booking_item_id when the booking has several room lines, and 404s an item of another booking', async () => {
    const res = await t.ops('POST', '/ops/bookings', {
      property_id: fx.property,
      channel: 'QDB',
      guest: {},
      checkin_date: '2026-07-01',
      checkout_date: '2026-07-02',
      rooms: [
        { room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0] },
        { room_type_id: fx.rooms[1]?.id, rate_plan_id: fx.plans[1] },
      ],
      total_price: { amount: 300 },
    });
    const b = res.body.data;
    expect(b.rooms.map((r: { price: number }) => r.price)).toEqual([150, 150]);
    const url = `/v1/qc/bookings/${b.external_booking_id}/room-assignment`;
    const missing = await t.request('POST', url, { token: fx.token, body: { room_number: '1' } });
    expect([missing.status, missing.body]).toEqual([
      422,
      validationEnvelope('booking_item_id: is required and was missing.', {
        booking_item_id: ['customer.booking.messages.required'],
      }),
    ]);
    const other = await opsBooking(t, fx);
    const [otherItem] = await t.deps.db.sql<{
      id: number;
    }>`select id from booking_rooms where booking_id = ${other.id}`;
    expect(
      (await t.request('POST', url, { token: fx.token, body: { room_number: '1', booking_item_id: otherItem?.id } }))
        .status,
    ).toBe(404);
    const second = b.rooms[1].id;
    const ok = await t.request('POST', url, { token: fx.token, body: { room_number: '12', booking_item_id: second } });
    expect(ok.body.data.rooms.map((r: { room_number: string | null }) => r.room_number)).toEqual([null, '12']);
  });

  it('validates the body', async () => {
    const b = await opsBooking(t, fx);
    const res = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/room-assignment`, {
      token: fx.token,
      body: { room_number: '' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('room_number');
  });
});
