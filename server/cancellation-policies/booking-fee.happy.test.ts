import { beforeAll, describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking } from '../bookings/test-fixtures.ts';

/**
 * A booking's cancellation block (spec 2.7) comes from the real policy in effect when it was made: the
 * snapshot holds that policy's rules, and `fee_charged` is what those rules charge on the cancellation day,
 * however the policy was edited since.
 */
const { t, fx } = bookingTest();
let policyPath: string;

beforeAll(async () => {
  const list = await t.request('GET', `/v1/qc/properties/${fx.property}/cancellation_policies`, { token: fx.token });
  policyPath = `/v1/qc/properties/${fx.property}/cancellation_policies/${list.body.data.cancellation_policies[0].id}`;
});

const cancel = (b: { external_booking_id: string }, body?: unknown) =>
  t.request('POST', `/v1/qc/properties/${fx.property}/bookings/${b.external_booking_id}/cancel`, {
    token: fx.token,
    body,
  });

describe('cancellation fee from the policy in effect when booked', () => {
  it('snapshots the edited placeholder the plan uses and charges its rule on the cancellation day', async () => {
    const rules = [
      { c_type: 'days_before_arrival', p_type: 'percent', p_days: 30, p_value: 50 },
      { c_type: 'no_show', p_type: 'percent', p_value: 100 },
    ];
    expect((await t.request('PATCH', policyPath, { token: fx.token, body: { data: rules } })).status).toBe(200);
    // Booked on 2026-06-15 for 2026-07-10: 25 days before arrival, inside the 30-day rule.
    const booked = await opsBooking(t, fx, { amount: 240 });

    // The policy changes after booking: the booking keeps the rules it was made under.
    const strict = [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }];
    expect((await t.request('PATCH', policyPath, { token: fx.token, body: { data: strict } })).status).toBe(200);

    const res = await cancel(booked);
    expect(res.status).toBe(200);
    expect(res.body.data.cancellation.fee_charged).toBe(120);
    expect(res.body.data.cancellation.policy_snapshot.cancellation_policy).toMatchObject({
      is_placeholder: false,
      rules: rules.map((r) => ({ p_days: null, p_date: null, ...r })),
    });

    const later = await opsBooking(t, fx, { amount: 240 });
    expect((await cancel(later)).body.data.cancellation.fee_charged).toBe(240);
  });

  it('charges nothing outside every rule, and a fee the caller states wins', async () => {
    const rules = [{ c_type: 'days_before_arrival', p_type: 'nights', p_days: 3, p_value: 1 }];
    await t.request('PATCH', policyPath, { token: fx.token, body: { data: rules } });
    const free = await opsBooking(t, fx, { amount: 240 });
    expect((await cancel(free)).body.data.cancellation.fee_charged).toBe(0);
    const stated = await opsBooking(t, fx, { amount: 240 });
    expect((await cancel(stated, { fee_charged: 15 })).body.data.cancellation.fee_charged).toBe(15);
  });
});
