import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { bookingFixture, bookingTest, partnerBody, pushFree } from './test-fixtures.ts';

const { t, fx } = bookingTest();
beforeAll(async () => {
  await pushFree(t, fx, 0, '2026-11-01', '2026-11-30', 2);
});

async function refused(body: Record<string, unknown>, reason: string, path = '/v1/qc/bookings') {
  const before = await counts();
  const res = await t.request('POST', path, { token: fx.token, body });
  expect([res.status, res.body]).toEqual([422, errorEnvelope('errors.qc.booking_create_failed', { reason })]);
  expect(await counts()).toEqual(before);
}

/** What a refused creation must leave untouched: bookings, revisions, events, booked counts. */
async function counts() {
  const [row] = await t.deps.db.sql`
    select (select count(*)::int from bookings where property_id = ${fx.propertyId}) as bookings,
      (select count(*)::int from booking_revisions where property_id = ${fx.propertyId}) as revisions,
      (select count(*)::int from outbox_events where property_id = ${fx.propertyId} and type like 'booking.%') as events,
      (select coalesce(sum(booked), 0)::int from availability a join room_types rt on rt.id = a.room_type_id where rt.property_id = ${fx.propertyId}) as booked`;
  return row;
}

async function restrict(values: Record<string, unknown>) {
  const res = await t.request('POST', `/v1/qc/properties/${fx.property}/inventory/restrictions`, {
    token: fx.token,
    body: { values: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], ...values }] },
  });
  expect(res.status).toBe(202);
}

describe('a refused partner creation is 422 errors.qc.booking_create_failed and writes nothing', () => {
  it('refuses nights with no free room (never pushed, or fewer than asked over all lines of the room type)', async () => {
    await refused(partnerBody(fx, { checkin_date: '2026-12-10', checkout_date: '2026-12-11' }), 'no_availability');
    await refused(
      partnerBody(fx, { rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], qty: 3 }] }),
      'no_availability',
    );
    const twoLines = [1, 2].map(() => ({ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], qty: 2 }));
    await refused(partnerBody(fx, { rooms: twoLines }), 'no_availability');
    // The last night outside the pushed range is enough to refuse.
    await refused(partnerBody(fx, { checkin_date: '2026-11-29', checkout_date: '2026-12-02' }), 'no_availability');
  });

  it('refuses stop-sell nights, closed arrival or departure, length of stay, and closed (legacy) days', async () => {
    await restrict({ date_from: '2026-11-05', date_to: '2026-11-05', stop_sell: true });
    await refused(partnerBody(fx, { checkin_date: '2026-11-04', checkout_date: '2026-11-06' }), 'closed');
    await restrict({ date_from: '2026-11-08', date_to: '2026-11-08', closed_to_arrival: true });
    await refused(partnerBody(fx, { checkin_date: '2026-11-08', checkout_date: '2026-11-09' }), 'closed');
    await restrict({ date_from: '2026-11-14', date_to: '2026-11-14', closed_to_departure: true });
    await refused(partnerBody(fx, { checkin_date: '2026-11-12', checkout_date: '2026-11-14' }), 'closed');
    await restrict({ date_from: '2026-11-16', date_to: '2026-11-16', min_los: 3 });
    await refused(partnerBody(fx, { checkin_date: '2026-11-16', checkout_date: '2026-11-18' }), 'length_of_stay');
    await restrict({ date_from: '2026-11-20', date_to: '2026-11-20', max_los: 1 });
    await refused(partnerBody(fx, { checkin_date: '2026-11-20', checkout_date: '2026-11-22' }), 'length_of_stay');
    await t.deps.db.sql`update availability set opened = false where date = '2026-11-24'
      and room_type_id = (select id from room_types where external_id = ${fx.rooms[0]?.id})`;
    await refused(partnerBody(fx, { checkin_date: '2026-11-24', checkout_date: '2026-11-25' }), 'closed');
    // Arrival the day after a closed-to-arrival day, departure on a stop-sell day: both fine.
    const ok = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: partnerBody(fx, { checkin_date: '2026-11-09', checkout_date: '2026-11-10' }),
    });
    expect(ok.status).toBe(201);
  });

  it('refuses unknown rooms and plans, and a plan not sold on that room', async () => {
    const other = '00000000-0000-4000-8000-000000000000';
    await refused(
      partnerBody(fx, { rooms: [{ room_type_id: other, rate_plan_id: fx.plans[0] }] }),
      'unknown_room_or_rate',
    );
    await refused(
      partnerBody(fx, { rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: 'NOPE' }] }),
      'unknown_room_or_rate',
    );
    await refused(
      partnerBody(fx, { rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.shadowPlan }] }),
      'unknown_room_or_rate',
    );
  });

  it('refuses a property outside the allow-list, a shadow property, bad dates and unknown channels', async () => {
    const stranger = await bookingFixture(t);
    await refused(partnerBody(fx, { property_id: stranger.property }), 'unknown_property');
    await refused(
      partnerBody(fx, {
        property_id: fx.shadow,
        rooms: [{ room_type_id: fx.shadowRoom, rate_plan_id: fx.shadowPlan }],
      }),
      'property_not_live',
    );
    await refused(partnerBody(fx, { checkin_date: '2026-11-12', checkout_date: '2026-11-12' }), 'bad_dates');
    await refused(partnerBody(fx, { checkin_date: '2026-02-30', checkout_date: '2026-03-02' }), 'bad_dates');
    await refused(partnerBody(fx, { source_channel: 'XYZ' }), 'unknown_channel');
  });

  it('is not cached under its Idempotency-Key: the same request succeeds once rooms are free', async () => {
    const body = partnerBody(fx, { checkin_date: '2027-01-10', checkout_date: '2027-01-11' });
    const headers = { 'idempotency-key': `refused-${crypto.randomUUID()}` };
    const first = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body, headers });
    expect(first.body.message).toBe('errors.qc.booking_create_failed');
    await pushFree(t, fx, 0, '2027-01-10', '2027-01-10', 1);
    const again = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBeNull();
  });

  it('rejects a malformed body with the validation envelope', async () => {
    const res = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body: { property_id: fx.property } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.validation_error');
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['guest', 'checkin_date', 'rooms', 'total_price', 'source_channel']),
    );
    const b2b = await t.request('POST', '/v1/qc/b2b/bookings', { token: fx.token, body: partnerBody(fx) });
    expect(b2b.body.errors).toHaveProperty('agency');
  });
});
