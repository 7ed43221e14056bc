import { beforeAll, describe, expect, it } from 'bun:test';
import { bookingEvents, bookingTest, freeRooms, partnerBody, pushFree } from './test-fixtures.ts';

const { t, fx } = bookingTest();
beforeAll(async () => {
  await pushFree(t, fx, 0, '2026-11-01', '2026-11-30', 4);
});

describe('POST /bookings', () => {
  it('takes a booking against free rooms: 201, created revision and event, rooms held', async () => {
    const res = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: partnerBody(fx, {
        rooms: [{ room_type_id: fx.rooms[0]?.partner_code, rate_plan_id: fx.plans[0], qty: 2 }],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'confirmed',
      source_channel: 'QDO',
      guest_last_name: 'L.',
      guest_email: 'p**************',
      nights: 2,
      adults: 1,
      total_price: { amount: 250, currency: 'EUR' },
      rooms: [{ qty: 2, external_room_type_id: fx.rooms[0]?.id }],
    });
    const id = res.body.data.inbound_booking_id;
    const [rev] = await t.deps.db.sql<{
      revision_type: string;
    }>`select revision_type from booking_revisions where booking_id = ${id}`;
    expect(rev?.revision_type).toBe('created');
    expect(
      (await bookingEvents(t, fx.propertyId))
        .filter((e) => e.data.booking_id === res.body.data.external_booking_id)
        .map((e) => e.type),
    ).toEqual(['booking.created']);
    expect(await freeRooms(t, fx, 0, '2026-11-09', '2026-11-12')).toEqual({
      '2026-11-09': 4,
      '2026-11-10': 2,
      '2026-11-11': 2,
      '2026-11-12': 4,
    });
  });

  it('a reference already used on this property and channel answers 200 with that booking and creates nothing', async () => {
    const body = partnerBody(fx, {
      reference: `PMS-${crypto.randomUUID()}`,
      checkin_date: '2026-11-20',
      checkout_date: '2026-11-21',
    });
    const first = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body });
    const again = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: { ...body, total_price: { amount: 999 } },
    });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data.inbound_booking_id).toBe(first.body.data.inbound_booking_id);
    expect(again.body.data.total_price.amount).toBe(250);
    const [count] = await t.deps.db.sql<{
      n: number;
    }>`select count(*)::int as n from booking_revisions where booking_id = ${first.body.data.inbound_booking_id}`;
    expect(count?.n).toBe(1);
    expect((await freeRooms(t, fx, 0, '2026-11-20', '2026-11-20'))['2026-11-20']).toBe(3);
  });

  it('takes a tentative booking', async () => {
    const res = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: partnerBody(fx, { tentative: true, checkin_date: '2026-11-25', checkout_date: '2026-11-26' }),
    });
    expect(res.body.data.status).toBe('tentative');
  });

  it('replays a keyed creation instead of booking twice', async () => {
    const body = partnerBody(fx, { checkin_date: '2026-11-27', checkout_date: '2026-11-28' });
    const headers = { 'idempotency-key': `create-${crypto.randomUUID()}` };
    const first = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body, headers });
    const again = await t.request('POST', '/v1/qc/bookings', { token: fx.token, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.data.inbound_booking_id).toBe(first.body.data.inbound_booking_id);
    expect((await freeRooms(t, fx, 0, '2026-11-27', '2026-11-27'))['2026-11-27']).toBe(3);
  });
});

describe('POST /b2b/bookings', () => {
  it('books on the agency channel QDA with the agency in the snapshot', async () => {
    const body = {
      ...partnerBody(fx, { checkin_date: '2026-11-15', checkout_date: '2026-11-16' }),
      agency: { name: 'Nordic Travel', reference: 'NT-99' },
    };
    delete (body as Record<string, unknown>).source_channel;
    const res = await t.request('POST', '/v1/qc/b2b/bookings', { token: fx.token, body });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      source_channel: 'QDA',
      agency: { name: 'Nordic Travel', reference: 'NT-99' },
    });
    const [rev] = await t.deps.db.sql<{
      payload: Record<string, unknown>;
    }>`select payload from booking_revisions where booking_id = ${res.body.data.inbound_booking_id}`;
    expect(rev?.payload.agency).toEqual({ name: 'Nordic Travel', reference: 'NT-99' });
  });

  it('a reference already used on the agency channel answers 200 with that booking (a status its document lists)', async () => {
    const body = {
      ...partnerBody(fx, {
        reference: `AG-${crypto.randomUUID()}`,
        checkin_date: '2026-11-17',
        checkout_date: '2026-11-18',
      }),
      agency: { name: 'Nordic Travel' },
    };
    delete (body as Record<string, unknown>).source_channel;
    const first = await t.request('POST', '/v1/qc/b2b/bookings', { token: fx.token, body });
    const again = await t.request('POST', '/v1/qc/b2b/bookings', { token: fx.token, body });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data.inbound_booking_id).toBe(first.body.data.inbound_booking_id);
  });
});
