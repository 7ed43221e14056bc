import { describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking } from './test-fixtures.ts';

/**
 * An account-scoped consumer's feed when its allow-list changes after retention removed the acks behind its
 * watermarks (retention/feed-acks.ts): what it acked stays acked, and a property that joins the allow-list brings
 * exactly its own unacked revisions (feed-account.ts). Reading acks alone, the consumer was sent its whole account
 * again.
 */
const { t, fx } = bookingTest();

interface Item {
  id: number;
}

describe('account feed across an allow-list change', () => {
  it('sends a joining property its unacked revisions and nothing the consumer acked, after its acks were removed', async () => {
    const consumer = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.read'],
      account_scoped: true,
    });
    const poll = async (): Promise<number[]> => {
      const res = await t.request('GET', '/v1/qc/booking_revisions/feed', {
        token: consumer.token,
        query: { since: 0, limit: 500 },
      });
      expect(res.status).toBe(200);
      return (res.body.data.booking_revisions as Item[]).map((r) => r.id);
    };
    // The shadow property leaves the allow-list (a paused group) and takes a booking meanwhile.
    const group = (await t.ops('POST', '/ops/property-groups', { customer_id: fx.demo.customer_id, name: 'Later' }))
      .body.data;
    // Into the group by SQL (no route moves a property between groups); the pause below refreshes allow-lists.
    await t.deps.db.sql`update properties set group_id = ${group.id} where external_id = ${fx.shadow}`;
    expect((await t.ops('PUT', `/ops/property-groups/${group.id}/paused`, { paused: true })).status).toBe(200);
    const unseen = await opsBooking(t, fx, {
      property_id: fx.shadow,
      rooms: [{ room_type_id: fx.shadowRoom, rate_plan_id: fx.shadowPlan, qty: 1 }],
    });
    for (let i = 0; i < 3; i++) await opsBooking(t, fx);

    // Everything the consumer can see, acked.
    const seen = await poll();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).not.toContain(unseen.revision_id);
    for (const id of seen)
      expect((await t.request('POST', `/v1/qc/booking_revisions/${id}/ack`, { token: consumer.token })).status).toBe(
        200,
      );
    expect(await poll()).toEqual([]);

    // Retention's rule: the acks behind the consumer's watermarks go (here at once, not after 30 days).
    const [client] = await t.deps.db.sql<{
      id: number;
    }>`select id from api_clients where client_id = ${consumer.client_id}`;
    const removed = await t.deps.db.sql`
      delete from booking_revision_acks a using booking_revisions r, booking_feed_watermarks w
      where a.consumer_id = ${client?.id} and r.id = a.revision_id
        and w.consumer_id = a.consumer_id and w.property_id = r.property_id and r.id <= w.acked_through
      returning a.revision_id`;
    expect(removed.length).toBe(seen.length);

    // The shadow property joins the allow-list again: its booking arrives, nothing acked comes back.
    expect((await t.ops('PUT', `/ops/property-groups/${group.id}/paused`, { paused: false })).status).toBe(200);
    expect(await poll()).toEqual([unseen.revision_id as number]);
    expect(
      (await t.request('POST', `/v1/qc/booking_revisions/${unseen.revision_id}/ack`, { token: consumer.token })).status,
    ).toBe(200);
    expect(await poll()).toEqual([]);
  });

  it('builds the position from the watermarks when the first call under a new allow-list is an ack, not a poll', async () => {
    const consumer = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.read'],
      account_scoped: true,
    });
    const [client] = await t.deps.db.sql<{
      id: number;
    }>`select id from api_clients where client_id = ${consumer.client_id}`;
    // 6000 revisions of one booking, all behind the consumer's watermark (acked, their acks since removed): more
    // than an ack's look-ahead (5000) walks from 0.
    const booking = await opsBooking(t, fx);
    const [last] = await t.deps.db.sql<{ id: number }>`
      with added as (
        insert into booking_revisions (booking_id, property_id, revision_type, payload)
        select ${booking.id}, ${fx.propertyId}, 'modified', '{}'::jsonb from generate_series(1, 6000) returning id)
      select max(id) as id from added`;
    await t.deps.db.sql`
      insert into booking_feed_watermarks (consumer_id, property_id, acked_through)
      select ${client?.id}, r.property_id, max(r.id) from booking_revisions r
      join properties p on p.id = r.property_id where p.customer_id = ${fx.demo.customer_id} group by r.property_id`;

    // A property joins the account; the consumer's first call under the new allow-list acks a revision.
    const added = await t.ops('POST', '/ops/properties', {
      customer_id: fx.demo.customer_id,
      name: 'Joined Inn',
      currency: 'EUR',
      timezone: 'UTC',
    });
    expect(added.status).toBe(200);
    // (A revision at or below the watermark is acked already: its ack stores nothing and moves nothing. The ack
    // that moves the position is of a revision appended since.)
    const appended = await opsBooking(t, fx);
    const ack = await t.request('POST', `/v1/qc/booking_revisions/${appended.revision_id}/ack`, {
      token: consumer.token,
    });
    expect(ack.status).toBe(200);

    const [position] = await t.deps.db.sql<{ acked_through: number }>`
      select acked_through from booking_feed_positions where consumer_id = ${client?.id}`;
    expect(position?.acked_through).toBeGreaterThanOrEqual(appended.revision_id as number);
    expect(appended.revision_id as number).toBeGreaterThan(last?.id as number);
    const page = await t.request('GET', '/v1/qc/booking_revisions/feed', {
      token: consumer.token,
      query: { since: 0 },
    });
    expect(page.body.data.booking_revisions).toEqual([]);
  });
});
