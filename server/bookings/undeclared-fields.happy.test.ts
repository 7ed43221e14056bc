import { describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking } from './test-fixtures.ts';

/**
 * Booking writes that take no body (a no-show, a revision ack) had no body schema, so the pipeline never looked
 * at what was sent: `{"x": 1, "reason_code": "r"}` answered 200 without a word, where README promises every
 * write names its undeclared fields in `warnings`. The inbound webhook parses its own body, so the pipeline
 * never saw its fields either.
 */
const { t, fx } = bookingTest();

const unknown = (...fields: string[]) => fields.map((field) => ({ field, key: 'errors.qc.unknown_field' }));

describe('undeclared body fields on booking writes', () => {
  it('POST .../no_show names each field sent, and a no-show without a body has no warnings member', async () => {
    const named = await opsBooking(t, fx);
    const res = await t.request('POST', `/v1/qc/properties/${fx.property}/bookings/${named.id}/no_show`, {
      token: fx.token,
      body: { x: 1, reason_code: 'r' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('no_show');
    expect(res.body.warnings).toEqual(unknown('x', 'reason_code'));

    const quiet = await opsBooking(t, fx, { checkin_date: '2026-07-20', checkout_date: '2026-07-21' });
    const plain = await t.request('POST', `/v1/qc/properties/${fx.property}/bookings/${quiet.id}/no_show`, {
      token: fx.token,
    });
    expect(plain.status).toBe(200);
    expect('warnings' in plain.body).toBe(false);
  });

  it('POST /booking_revisions/{id}/ack names each field sent, and an ack without a body has no warnings member', async () => {
    const [first] = (await opsBooking(t, fx, { checkin_date: '2026-07-22', checkout_date: '2026-07-23' })).revisions;
    const res = await t.request('POST', `/v1/qc/booking_revisions/${first?.id}/ack`, {
      token: fx.token,
      body: { x: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ revision_id: first?.id, acked: true });
    expect(res.body.warnings).toEqual(unknown('x'));

    const [second] = (await opsBooking(t, fx, { checkin_date: '2026-07-24', checkout_date: '2026-07-25' })).revisions;
    const plain = await t.request('POST', `/v1/qc/booking_revisions/${second?.id}/ack`, { token: fx.token });
    expect(plain.status).toBe(200);
    expect('warnings' in plain.body).toBe(false);
  });

  it('POST /inbound/webhooks names the fields its reservation does not declare, nested ones by their path', async () => {
    const reservation = {
      external_property_id: fx.property,
      reservation_id: `BDC-${crypto.randomUUID()}`,
      guest: { first_name: 'Ola', last_name: 'Nordmann', middle_name: 'K' },
      checkin_date: '2026-07-26',
      checkout_date: '2026-07-27',
      rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], qty: 1 }],
      total_price: { amount: 120, currency: 'EUR' },
    };
    const deliver = (body: unknown) =>
      t.request('POST', '/v1/qc/inbound/webhooks?channel=BDC', { token: fx.token, body });
    const res = await deliver({ ...reservation, special_requests: 'late arrival' });
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('created');
    expect(res.body.warnings).toEqual(unknown('guest.middle_name', 'special_requests'));

    const { middle_name: _, ...guest } = reservation.guest;
    const plain = await deliver({ ...reservation, guest });
    expect(plain.body.data.outcome).toBe('unchanged');
    expect('warnings' in plain.body).toBe(false);
  });
});
