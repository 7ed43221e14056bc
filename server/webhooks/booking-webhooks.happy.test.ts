import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { retireSubscriptions, startReceiver, subscribe, type TestReceiver } from './test-support.ts';

/** Spec 6.3: a booking state change emits one revision and one webhook, through the real booking flows. */
describe('booking webhooks', () => {
  let t: TestApp;
  let demo: Demo;
  let receiver: TestReceiver;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(new Date('2026-01-20T09:00:00Z')), webhooks: { autorun: false } });
    demo = await t.demo();
    receiver = startReceiver();
  });
  afterAll(async () => {
    await retireSubscriptions(t.deps, demo.customer_id);
    await t.close();
    await receiver.stop();
  });

  it('sends one webhook per booking change, matching its feed revision, even to a subscriber of both alias names', async () => {
    const live = demo.properties[0];
    if (!live) throw new Error('demo has no property');
    await subscribe(t, demo.personal_token, {
      url: receiver.url,
      event_types: ['booking.created', 'booking.arrived', 'booking.cancelled'],
      property_ids: [live.external_property_id],
    });
    const [pair] = await t.deps.db.sql<{ room_type_id: number; rate_plan_id: number }>`
      select rr.room_type_id, rr.rate_plan_id from rate_plan_rooms rr join rate_plans p on p.id = rr.rate_plan_id
      join properties pr on pr.id = p.property_id
      where pr.external_id = ${live.external_property_id} and p.parent_id is null and p.sell_type = 'per_room' limit 1`;
    const created = await t.ops('POST', '/ops/bookings', {
      property_id: live.external_property_id,
      channel: 'QDO',
      guest: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      checkin_date: '2026-03-01',
      checkout_date: '2026-03-04',
      rooms: [{ room_type_id: pair?.room_type_id, rate_plan_id: pair?.rate_plan_id, adults: 2 }],
      total_price: { amount: 300 },
    });
    expect(created.status).toBe(200);
    const booking = created.body.data.external_booking_id as string;
    for (let i = 0; i < 2; i++) {
      const cancel = await t.request(
        'POST',
        `/v1/qc/properties/${live.external_property_id}/bookings/${booking}/cancel`,
        {
          token: demo.personal_token,
        },
      );
      expect(cancel.status).toBe(200);
    }
    await t.webhooks?.runDue();
    await t.webhooks?.runDue();

    const feed = await t.request('GET', '/v1/qc/booking_revisions/feed', {
      token: demo.personal_token,
      query: { limit: 100 },
    });
    const revisions = (
      feed.body.data.booking_revisions as {
        id: number;
        revision_type: string;
        payload: { external_booking_id: string };
      }[]
    )
      .filter((r) => r.payload.external_booking_id === booking)
      .map((r) => [r.revision_type, r.id]);
    expect(revisions.map(([type]) => type)).toEqual(['created', 'cancelled']);

    const webhooks = receiver.received.map((r) => JSON.parse(r.body));
    expect(webhooks.map((w) => [w.type.replace('booking.', ''), w.data.revision_id])).toEqual(revisions);
    expect(webhooks.map((w) => w.type)).toEqual(['booking.created', 'booking.cancelled']);
    for (const w of webhooks) {
      expect(w.data).toMatchObject({ booking_id: booking, checkin_date: '2026-03-01', checkout_date: '2026-03-04' });
      expect(w.property_id).toBe(live.external_property_id);
    }
  });
});
