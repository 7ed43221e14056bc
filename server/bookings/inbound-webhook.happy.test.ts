import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { type BookingFixture, bookingFixture, freeRooms, pushFree } from './test-fixtures.ts';

let fx: BookingFixture;

const t = testAppPerFile();
beforeAll(async () => {
  fx = await bookingFixture(t);
  await pushFree(t, fx, 1, '2026-12-01', '2026-12-31', 3);
});

let seq = 0;
function reservation(over: Record<string, unknown> = {}) {
  return {
    external_property_id: fx.property,
    reservation_id: `BDC-${crypto.randomUUID()}-${++seq}`,
    revision_id: 'r1',
    guest: { first_name: 'Ola', last_name: 'Nordmann', email: 'ola@example.no', phone: '+4790000000' },
    checkin_date: '2026-12-10',
    checkout_date: '2026-12-12',
    rooms: [{ room_type_id: fx.rooms[1]?.partner_code, rate_plan_id: fx.plans[1], qty: 1 }],
    total_price: { amount: 300, currency: 'EUR' },
    ...over,
  };
}

const deliver = (body: unknown, channel = 'BDC') =>
  t.request('POST', `/v1/qc/inbound/webhooks?channel=${channel}`, { token: fx.token, body });

async function revisionsOf(bookingId: number) {
  return t.deps.db.sql<{ revision_type: string; payload: Record<string, any> }>`
    select revision_type, payload from booking_revisions where booking_id = ${bookingId} order by id`;
}

describe('POST /inbound/webhooks', () => {
  it('creates the booking on the channel, holding its rooms; a redelivery changes nothing', async () => {
    const r = reservation();
    const first = await deliver(r);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      booking_id: expect.any(String),
      inbound_booking_id: expect.any(Number),
      outcome: 'created',
      revision_ids: [expect.any(Number)],
    });
    const again = await deliver(r);
    expect(again.body.data).toEqual({ ...first.body.data, outcome: 'unchanged', revision_ids: [] });
    const revisions = await revisionsOf(first.body.data.inbound_booking_id);
    expect(revisions.map((x) => x.revision_type)).toEqual(['created']);
    expect(revisions[0]?.payload).toMatchObject({
      source_channel: 'BDC',
      external_revision_id: 'r1',
      guest_last_name: 'N.',
      guest_phone: '********00',
    });
    expect(await freeRooms(t, fx, 1, '2026-12-10', '2026-12-11')).toEqual({ '2026-12-10': 2, '2026-12-11': 2 });
  });

  it('applies a changed delivery as a modification, a confirmation of a tentative one, and a cancellation once', async () => {
    const r = reservation({ status: 'tentative', checkin_date: '2026-12-20', checkout_date: '2026-12-21' });
    const created = await deliver(r);
    const id = created.body.data.inbound_booking_id;
    const modified = await deliver({ ...r, revision_id: 'r2', checkout_date: '2026-12-22' });
    expect(modified.body.data.outcome).toBe('modified');
    const confirmed = await deliver({ ...r, revision_id: 'r3', checkout_date: '2026-12-22', status: 'confirmed' });
    expect(confirmed.body.data.outcome).toBe('confirmed');
    const cancel = {
      ...r,
      revision_id: 'r4',
      checkout_date: '2026-12-22',
      status: 'cancelled',
      cancellation: { reason_code: 'guest_request', fee_charged: 30 },
    };
    expect((await deliver(cancel)).body.data.outcome).toBe('cancelled');
    expect((await deliver(cancel)).body.data.outcome).toBe('unchanged');
    const revisions = await revisionsOf(id);
    expect(revisions.map((x) => x.revision_type)).toEqual(['created', 'modified', 'confirmed', 'cancelled']);
    expect(revisions[1]?.payload).toMatchObject({
      checkout_date: '2026-12-22',
      external_revision_id: 'r2',
      status: 'tentative',
    });
    expect(revisions[3]?.payload.cancellation).toMatchObject({
      cancelled_by: 'ota',
      reason_code: 'guest_request',
      fee_charged: 30,
    });
    expect(await freeRooms(t, fx, 1, '2026-12-20', '2026-12-21')).toEqual({ '2026-12-20': 3, '2026-12-21': 3 });
  });

  it('every revision carries the revision reference the channel sent with it, cancellations and confirmations too', async () => {
    const r = reservation({ revision_id: 'EXP-77-r1', checkin_date: '2026-12-01', checkout_date: '2026-12-02' });
    const created = await deliver(r, 'EXP');
    await deliver({ ...r, revision_id: 'EXP-77-r2', checkout_date: '2026-12-03' }, 'EXP');
    await deliver({ ...r, revision_id: 'EXP-77-r3', checkout_date: '2026-12-03', status: 'cancelled' }, 'EXP');
    const revisions = await revisionsOf(created.body.data.inbound_booking_id);
    expect(revisions.map((x) => [x.revision_type, x.payload.external_revision_id])).toEqual([
      ['created', 'EXP-77-r1'],
      ['modified', 'EXP-77-r2'],
      ['cancelled', 'EXP-77-r3'],
    ]);

    const tentative = reservation({ revision_id: 'hrs-r1', status: 'tentative' });
    const held = await deliver(tentative, 'HRS');
    await deliver({ ...tentative, revision_id: 'hrs-r2', status: 'confirmed' }, 'HRS');
    const confirmed = await revisionsOf(held.body.data.inbound_booking_id);
    expect(confirmed.map((x) => [x.revision_type, x.payload.external_revision_id])).toEqual([
      ['created', 'hrs-r1'],
      ['confirmed', 'hrs-r2'],
    ]);
  });

  it('a delivery without revision_id gives its revision none, as a creation or modification without one does', async () => {
    const r = reservation({ revision_id: 'r1', checkin_date: '2026-12-03', checkout_date: '2026-12-04' });
    const created = await deliver(r);
    const { revision_id: _, ...withoutReference } = r;
    await deliver({ ...withoutReference, status: 'cancelled' });
    const revisions = await revisionsOf(created.body.data.inbound_booking_id);
    expect(revisions.map((x) => [x.revision_type, x.payload.external_revision_id])).toEqual([
      ['created', 'r1'],
      ['cancelled', null],
    ]);
  });

  it("a cancellation by the hotelier keeps the channel's last revision reference: it is not a channel revision", async () => {
    const r = reservation({ revision_id: 'r7', checkin_date: '2026-12-04', checkout_date: '2026-12-05' });
    const created = await deliver(r);
    const cancel = await t.request(
      'POST',
      `/v1/qc/properties/${fx.property}/bookings/${created.body.data.booking_id}/cancel`,
      { token: fx.token, body: {} },
    );
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.external_revision_id).toBe('r7');
    const revisions = await revisionsOf(created.body.data.inbound_booking_id);
    expect(revisions.map((x) => [x.revision_type, x.payload.external_revision_id])).toEqual([
      ['created', 'r7'],
      ['cancelled', 'r7'],
    ]);
  });

  it('a reservation first seen already cancelled is recorded (created, then cancelled) and holds nothing', async () => {
    const res = await deliver(
      reservation({ status: 'cancelled', checkin_date: '2026-12-28', checkout_date: '2026-12-29' }),
    );
    expect(res.body.data.outcome).toBe('cancelled');
    expect((await revisionsOf(res.body.data.inbound_booking_id)).map((x) => x.revision_type)).toEqual([
      'created',
      'cancelled',
    ]);
    expect((await freeRooms(t, fx, 1, '2026-12-28', '2026-12-28'))['2026-12-28']).toBe(3);
  });

  it('takes what the channel sold even without free rooms (no availability check on channel intake)', async () => {
    const res = await deliver(reservation({ checkin_date: '2027-03-01', checkout_date: '2027-03-02' }));
    expect(res.body.data.outcome).toBe('created');
  });

  it('keys reservations by channel: the same reference from another channel is another booking', async () => {
    const r = reservation({ checkin_date: '2026-12-05', checkout_date: '2026-12-06' });
    const bdc = await deliver(r, 'BDC');
    const exp = await deliver(r, 'EXP');
    expect(exp.body.data.outcome).toBe('created');
    expect(exp.body.data.inbound_booking_id).not.toBe(bdc.body.data.inbound_booking_id);
  });

  it('concurrent deliveries of one new reservation make one booking and one created revision', async () => {
    const r = reservation({ checkin_date: '2026-12-15', checkout_date: '2026-12-16' });
    const replies = await Promise.all(Array.from({ length: 5 }, () => deliver(r)));
    const ids = new Set(replies.map((x) => x.body.data.inbound_booking_id));
    expect(ids.size).toBe(1);
    expect(replies.filter((x) => x.body.data.outcome === 'created').length).toBe(1);
    expect((await revisionsOf([...ids][0] as number)).length).toBe(1);
    expect((await freeRooms(t, fx, 1, '2026-12-15', '2026-12-15'))['2026-12-15']).toBe(2);
  });
});
