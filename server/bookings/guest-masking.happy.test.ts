import { beforeAll, describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking, partnerBody, pushFree } from './test-fixtures.ts';

/**
 * Guests whose last name or e-mail starts beyond the Basic Multilingual Plane (`𠮷田`, a Japanese surname;
 * `𝒜nn@x.com`): masking cut the first UTF-16 unit, half a surrogate pair, PostgreSQL refused the revision
 * and every way a booking comes in answered a generic 422, so a channel retrying such a booking was refused
 * for ever. Each way in now takes the booking, its revision masked by whole characters.
 */
const { t, fx } = bookingTest();
beforeAll(async () => {
  await pushFree(t, fx, 0, '2026-11-01', '2026-11-30', 9);
});

const GUEST = { first_name: 'Jo', last_name: '𠮷田', email: '𝒜nn@x.com', phone: '+81 90 1234 5678' };

async function lastPayload(bookingId: number) {
  const [row] = await t.deps.db.sql<{ payload: Record<string, unknown> }>`
    select payload from booking_revisions where booking_id = ${bookingId} order by id desc limit 1`;
  return row?.payload;
}

describe('guests beyond the Basic Multilingual Plane', () => {
  it('POST /bookings takes the booking and answers the last name and e-mail masked by whole characters', async () => {
    const res = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: partnerBody(fx, { guest: GUEST }),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ guest_last_name: '𠮷.', guest_email: '𝒜********' });
    expect(await lastPayload(res.body.data.inbound_booking_id)).toMatchObject({
      guest_last_name: '𠮷.',
      guest_email: '𝒜********',
    });
  });

  it('the inbound channel webhook creates the booking and a redelivery is unchanged, not refused', async () => {
    const reservation = {
      external_property_id: fx.property,
      reservation_id: `BDC-${crypto.randomUUID()}`,
      guest: GUEST,
      checkin_date: '2026-11-12',
      checkout_date: '2026-11-13',
      rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], qty: 1 }],
      total_price: { amount: 120, currency: 'EUR' },
    };
    const deliver = () =>
      t.request('POST', '/v1/qc/inbound/webhooks?channel=BDC', { token: fx.token, body: reservation });
    const first = await deliver();
    expect(first.status).toBe(200);
    expect(first.body.data.outcome).toBe('created');
    expect((await deliver()).body.data.outcome).toBe('unchanged');
    expect(await lastPayload(first.body.data.inbound_booking_id)).toMatchObject({
      guest_last_name: '𠮷.',
      guest_email: '𝒜********',
    });
  });

  it('POST /ops/bookings takes the booking', async () => {
    const created = await opsBooking(t, fx, { guest: GUEST, checkin_date: '2026-11-14', checkout_date: '2026-11-15' });
    expect(await lastPayload(created.id)).toMatchObject({ guest_last_name: '𠮷.', guest_email: '𝒜********' });
  });

  it('PATCH /ops/bookings/{id} to such a guest appends its modified revision', async () => {
    const plain = await opsBooking(t, fx, { checkin_date: '2026-11-16', checkout_date: '2026-11-17' });
    const res = await t.ops('PATCH', `/ops/bookings/${plain.id}`, {
      guest: { last_name: '🇵🇹Silva', email: 'e\u0301lise@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.revision_id).toEqual(expect.any(Number));
    // A flag is two code points and one character; `é` written as `e` + U+0301 keeps its accent.
    expect(await lastPayload(plain.id)).toMatchObject({
      guest_last_name: '🇵🇹.',
      guest_email: `e\u0301${'*'.repeat(16)}`,
    });
  });
});
