import { beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { OPERATOR_TOKEN, testAppPerFile } from '../testing/harness.ts';
import { type BookingFixture, bookingFixture } from './test-fixtures.ts';

const clock = new ManualClock('2026-06-15T10:00:00Z');
const t = testAppPerFile({ clock });

/** The booking intake's Idempotency-Key, kept with the booking (intake-keys.ts), lives its 24 hours and no longer. */
describe('booking intake keys over time', () => {
  let fx: BookingFixture;
  beforeAll(async () => {
    fx = await bookingFixture(t);
  });
  const book = (key: string, lastName: string) =>
    t.request('POST', '/ops/bookings', {
      token: OPERATOR_TOKEN,
      headers: { 'idempotency-key': key },
      body: {
        property_id: fx.property,
        channel: 'QDO',
        guest: { first_name: 'Ann', last_name: lastName, email: 'ann@example.com' },
        checkin_date: '2026-07-10',
        checkout_date: '2026-07-11',
        rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0], qty: 1 }],
        total_price: { amount: 120 },
      },
    });

  it('answers a key within its 24 hours with its booking, and takes it as a new operation after them', async () => {
    const key = `intake-${crypto.randomUUID()}`;
    const first = await book(key, 'First');
    expect(first.status).toBe(200);
    clock.advance(23 * 3600_000);
    expect((await book(key, 'Other')).status).toBe(409);
    clock.advance(3600_000 + 1000);
    const later = await book(key, 'Other');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotency-replayed')).toBeNull();
    expect(later.body.data.id).not.toBe(first.body.data.id);
    // The key now names the new booking: its retry replays it.
    const retried = await book(key, 'Other');
    expect(retried.headers.get('idempotency-replayed')).toBe('true');
    expect(retried.body.data.id).toBe(later.body.data.id);
  });
});
