import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { type BookingFixture, bookingFixture, opsBooking } from './test-fixtures.ts';

let fx: BookingFixture;
let stranger: BookingFixture;

const t = testAppPerFile();
beforeAll(async () => {
  fx = await bookingFixture(t);
  stranger = await bookingFixture(t);
});

const feedIds = async (token: string) =>
  (
    (await t.request('GET', '/v1/qc/booking_revisions/feed', { token, query: { limit: 500 } })).body.data
      .booking_revisions as { inbound_booking_id: number }[]
  ).map((r) => r.inbound_booking_id);

describe('the feed and booking routes respect the property allow-list', () => {
  it("a token sees revisions of its own properties only, never another customer's", async () => {
    const mine = await opsBooking(t, fx);
    const theirs = await opsBooking(t, stranger);
    const ids = await feedIds(fx.token);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it("a token granted only the shadow property does not see the live property's revisions", async () => {
    const b = await opsBooking(t, fx);
    const { token } = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [fx.shadow],
    });
    expect(await feedIds(token)).not.toContain(b.id);
  });

  it("a disabled property drops out of an account-scoped token's feed at once", async () => {
    const f = await bookingFixture(t);
    const b = await opsBooking(t, f);
    expect(await feedIds(f.token)).toContain(b.id);
    await t.ops('PUT', `/ops/properties/${f.property}/status`, { status: 'disabled' });
    expect(await feedIds(f.token)).not.toContain(b.id);
  });

  it('acking, showing, cancelling, assigning or acking a booking outside the allow-list is 404 and changes nothing', async () => {
    const theirs = await opsBooking(t, stranger);
    const calls: [string, string, unknown?][] = [
      ['POST', `/v1/qc/booking_revisions/${theirs.revision_id}/ack`],
      ['POST', `/v1/qc/bookings/${theirs.external_booking_id}/ack`],
      ['POST', `/v1/qc/bookings/${theirs.external_booking_id}/room-assignment`, { room_number: '101' }],
      ['GET', `/v1/qc/properties/${stranger.property}/bookings/${theirs.external_booking_id}`],
      ['POST', `/v1/qc/properties/${stranger.property}/bookings/${theirs.external_booking_id}/cancel`],
      ['POST', `/v1/qc/properties/${fx.property}/bookings/${theirs.external_booking_id}/cancel`],
      ['POST', `/v1/qc/properties/${fx.property}/bookings/${theirs.external_booking_id}/no_show`],
      ['GET', `/v1/qc/properties/${stranger.property}/bookings`],
      ['GET', `/v1/qc/properties/${stranger.property}/bookings/health`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token: fx.token, body });
      expect([path, res.status, res.body.message]).toEqual([path, 404, 'errors.not_found']);
    }
    const [row] = await t.deps.db.sql<{ status: string; acks: number }>`
      select status, (select count(*)::int from booking_revision_acks a join booking_revisions r on r.id = a.revision_id where r.booking_id = b.id) as acks
      from bookings b where id = ${theirs.id}`;
    expect(row).toEqual({ status: 'confirmed', acks: 0 });
  });

  it('cancel and no-show need bookings.write; the feed and acks need bookings.read only', async () => {
    const b = await opsBooking(t, fx);
    const { token } = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [fx.property],
    });
    const cancel = await t.request(
      'POST',
      `/v1/qc/properties/${fx.property}/bookings/${b.external_booking_id}/cancel`,
      { token },
    );
    expect([cancel.status, cancel.body.message]).toEqual([403, 'errors.qc.insufficient_scope']);
    expect((await t.request('POST', `/v1/qc/booking_revisions/${b.revision_id}/ack`, { token })).status).toBe(200);
  });

  it('an endpoint allow-list narrows the booking routes by name', async () => {
    const b = await opsBooking(t, fx);
    const { token } = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.read', 'bookings.write'],
      property_ids: [fx.property],
      endpoint_scopes: ['qc.booking_revisions.*'],
    });
    expect((await t.request('GET', '/v1/qc/booking_revisions/feed', { token })).status).toBe(200);
    const cancel = await t.request(
      'POST',
      `/v1/qc/properties/${fx.property}/bookings/${b.external_booking_id}/cancel`,
      { token },
    );
    expect([cancel.status, cancel.body.message]).toEqual([403, 'errors.qc.endpoint_not_allowed']);
  });
});
