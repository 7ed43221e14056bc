import { describe, expect, it } from 'bun:test';
import { daysBefore } from '../retention/batches.ts';
import { pruneAcksBehindWatermarks } from '../retention/feed-acks.ts';
import { bookingFixture, bookingTest, opsBooking } from './test-fixtures.ts';

const { t, fx, clock } = bookingTest();

const feed = (token: string, query: Record<string, string | number> = {}) =>
  t.request('GET', '/v1/qc/booking_revisions/feed', { token, query });
const ack = (token: string, id: number) => t.request('POST', `/v1/qc/booking_revisions/${id}/ack`, { token });

/** A consumer of its own (an OAuth client on the fixture's properties). */
async function consumer(scopes = ['bookings.read', 'bookings.write']) {
  const c = await t.client({ customer_id: fx.demo.customer_id, scopes, property_ids: [fx.property, fx.shadow] });
  return c.token;
}

describe('GET /booking_revisions/feed', () => {
  it('delivers unacked revisions ascending with next_cursor; since resumes after an id; acked ones stop coming', async () => {
    const token = await consumer();
    const a = await opsBooking(t, fx);
    const b = await opsBooking(t, fx, { channel: 'EXP' });
    await t.ops('POST', `/ops/bookings/${a.id}/cancel`, { cancelled_by: 'guest', reason_code: 'x' });
    const first = await feed(token, { since: 0, limit: 2 });
    expect(first.status).toBe(200);
    const items = first.body.data.booking_revisions;
    expect(items.length).toBe(2);
    expect(items[0].id).toBeLessThan(items[1].id);
    expect(first.body.data.next_cursor).toBe(items[1].id);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      inbound_booking_id: expect.any(Number),
      revision_type: expect.any(String),
      created_at: expect.any(String),
      external_property_id: fx.property,
      payload: expect.objectContaining({ external_booking_id: expect.any(String), rooms: expect.any(Array) }),
    });
    const all = (await feed(token, { since: 0, limit: 500 })).body.data.booking_revisions as {
      id: number;
      inbound_booking_id: number;
      revision_type: string;
    }[];
    const mine = all.filter((r) => [a.id, b.id].includes(r.inbound_booking_id));
    expect(mine.map((r) => [r.inbound_booking_id, r.revision_type])).toEqual([
      [a.id, 'created'],
      [b.id, 'created'],
      [a.id, 'cancelled'],
    ]);

    const rest = await feed(token, { since: first.body.data.next_cursor, limit: 500 });
    expect(rest.body.data.booking_revisions.map((r: { id: number }) => r.id)).toEqual(
      all.map((r) => r.id).filter((id) => id > first.body.data.next_cursor),
    );

    for (const r of items) expect((await ack(token, r.id)).status).toBe(200);
    const after = (await feed(token, { since: 0, limit: 500 })).body.data.booking_revisions.map(
      (r: { id: number }) => r.id,
    );
    expect(after).toEqual(all.map((r) => r.id).filter((id) => !items.some((i: { id: number }) => i.id === id)));
  });

  it('an unacked revision keeps coming back when polling from 0', async () => {
    const token = await consumer();
    const b = await opsBooking(t, fx);
    for (let i = 0; i < 3; i++) {
      const ids = (await feed(token, { since: 0, limit: 500 })).body.data.booking_revisions.map(
        (r: { inbound_booking_id: number }) => r.inbound_booking_id,
      );
      expect(ids).toContain(b.id);
    }
  });

  it('an empty page keeps the cursor where it was', async () => {
    const token = await consumer();
    const res = await feed(token, { since: 999999999 });
    expect(res.body.data).toEqual({ booking_revisions: [], next_cursor: 999999999 });
  });

  it('defaults limit to 100 and clamps it to 500; a malformed limit is dropped to the default', async () => {
    const f = await bookingFixture(t);
    const b = await opsBooking(t, f);
    // Feed volume straight into the table: this test is about page sizes, not about how revisions are made.
    await t.deps.db.sql`insert into booking_revisions (booking_id, property_id, revision_type, payload)
      select ${b.id}, ${f.propertyId}, 'modified', '{}'::jsonb from generate_series(1, 600)`;
    const c = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [f.property],
    });
    expect((await feed(c.token)).body.data.booking_revisions.length).toBe(100);
    expect((await feed(c.token, { limit: 100000 })).body.data.booking_revisions.length).toBe(500);
    expect((await feed(c.token, { limit: 4 })).body.data.booking_revisions.length).toBe(4);
    for (const limit of [0, '1.5', 'ten', -3]) {
      const res = await feed(c.token, { limit });
      expect([limit, res.status, res.body.data.booking_revisions.length]).toEqual([limit, 200, 100]);
    }
    // The property-scoped feed of the bookings list reads them by the same rule.
    const scoped = await t.request('GET', `/v1/qc/properties/${f.property}/bookings`, {
      token: c.token,
      query: { revisions: 1, limit: 'ten', since: 'x' },
    });
    expect(scoped.body.data.booking_revisions.length).toBe(100);
  });

  it('drops a malformed cursor to 0 instead of refusing it, like the bookings list drops malformed filters', async () => {
    const token = await consumer();
    const b = await opsBooking(t, fx);
    const everything = await feed(token, { since: 0 });
    expect(everything.body.data.booking_revisions.map((r: { id: number }) => r.id)).toContain(b.revision_id);
    for (const since of ['abc', -1, '1.5', '', '\u0000', '1\u0000']) {
      const res = await feed(token, { since });
      expect([since, res.status]).toEqual([since, 200]);
      expect(res.body.data).toEqual(everything.body.data);
    }
  });
});

describe('POST /booking_revisions/{id}/ack', () => {
  it('is idempotent per consumer and answers the first ack time', async () => {
    const token = await consumer();
    const b = await opsBooking(t, fx);
    const first = await ack(token, b.revision_id as number);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ revision_id: b.revision_id, acked: true, acked_at: clock.now().toISOString() });
    clock.advance(5_000);
    const again = await ack(token, b.revision_id as number);
    expect(again.body.data).toEqual(first.body.data);
  });

  it('does not touch other consumers: each keeps its own unacked revisions', async () => {
    const one = await consumer();
    const two = await consumer();
    const b = await opsBooking(t, fx);
    await ack(one, b.revision_id as number);
    const ofOne = (await feed(one, { limit: 500 })).body.data.booking_revisions.map((r: { id: number }) => r.id);
    const ofTwo = (await feed(two, { limit: 500 })).body.data.booking_revisions.map((r: { id: number }) => r.id);
    expect(ofOne).not.toContain(b.revision_id);
    expect(ofTwo).toContain(b.revision_id);
  });

  it('answers 404 for a revision that does not exist or is not an integer', async () => {
    const token = await consumer();
    expect((await ack(token, 999999999)).status).toBe(404);
    expect((await t.request('POST', '/v1/qc/booking_revisions/abc/ack', { token })).body.message).toBe(
      'errors.not_found',
    );
  });
});

describe('migration forms', () => {
  it('GET /properties/{ext}/bookings?revisions=1 is the feed narrowed to that property', async () => {
    const token = await consumer();
    const b = await opsBooking(t, fx);
    const res = await t.request('GET', `/v1/qc/properties/${fx.property}/bookings`, {
      token,
      query: { revisions: 1, limit: 500 },
    });
    expect(res.status).toBe(200);
    const items = res.body.data.booking_revisions as { id: number; external_property_id: string }[];
    expect(items.map((r) => r.id)).toContain(b.revision_id as number);
    expect(items.every((r) => r.external_property_id === fx.property)).toBe(true);
    expect(res.body.data.next_cursor).toBe(items.at(-1)?.id);
    const shadow = await t.request('GET', `/v1/qc/properties/${fx.shadow}/bookings`, {
      token,
      query: { revisions: 1 },
    });
    expect(shadow.body.data.booking_revisions).toEqual([]);
  });

  it('POST /bookings/{id}/ack acks every revision of the booking for this consumer, or those up to revision_id', async () => {
    const token = await consumer();
    const other = await consumer();
    const b = await opsBooking(t, fx);
    const modified = await t.ops('PATCH', `/ops/bookings/${b.id}`, { total_price: { amount: 999 } });
    const cancelled = await t.ops('POST', `/ops/bookings/${b.id}/cancel`, { cancelled_by: 'guest', reason_code: 'x' });
    const partial = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/ack`, {
      token,
      body: { revision_id: modified.body.data.revision_id },
    });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toEqual({
      booking_id: b.external_booking_id,
      inbound_booking_id: b.id,
      acked_now: 2,
      acked_revision_ids: [b.revision_id, modified.body.data.revision_id],
    });
    const rest = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/ack`, { token });
    expect(rest.body.data.acked_now).toBe(1);
    expect(rest.body.data.acked_revision_ids).toEqual([
      b.revision_id,
      modified.body.data.revision_id,
      cancelled.body.data.revision_id,
    ]);
    const again = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/ack`, { token });
    expect(again.body.data.acked_now).toBe(0);
    const ofOther = (await feed(other, { limit: 500 })).body.data.booking_revisions.filter(
      (r: { inbound_booking_id: number }) => r.inbound_booking_id === b.id,
    );
    expect(ofOther.length).toBe(3);
  });
});

describe('acks after retention removed them', () => {
  it('stay idempotent: a repeat stores nothing, acks nothing now, and answers the newest ack time retention removed', async () => {
    const resume = clock.now();
    // A property of its own: its watermark moves only with this consumer's acks of it.
    const f = await bookingFixture(t);
    const c = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [f.property],
    });
    const [consumerRow] = await t.deps.db.sql<{
      id: number;
    }>`select id from api_clients where client_id = ${c.client_id}`;
    const kept = async () =>
      (
        await t.deps.db.sql<{ revision_id: number }>`
          select revision_id from booking_revision_acks where consumer_id = ${consumerRow?.id} order by revision_id`
      ).map((r) => r.revision_id);
    const b = await opsBooking(t, f);
    const modified = (await t.ops('PATCH', `/ops/bookings/${b.id}`, { total_price: { amount: 999 } })).body.data;
    const revisions = [b.revision_id as number, modified.revision_id as number];

    // Everything acked in 1990 on this file's clock, so that the retention pass below (acks older than 30 days)
    // reaches no other test's acks in the shared database; the booking's two revisions last.
    clock.set('1990-01-01T00:00:00Z');
    let token = await t.oauthToken(c.client_id, c.client_secret);
    const before = (await feed(token, { since: 0, limit: 500 })).body.data.booking_revisions as { id: number }[];
    expect(before.slice(-2).map((r) => r.id)).toEqual(revisions);
    for (const r of before.slice(0, -2)) expect((await ack(token, r.id)).status).toBe(200);
    const first = await ack(token, revisions[0] as number);
    clock.advance(60_000);
    const second = await ack(token, revisions[1] as number);
    expect(first.body.data.acked_at).toBe('1990-01-01T00:00:00.000Z');
    expect(second.body.data.acked_at).toBe('1990-01-01T00:01:00.000Z');
    expect(await kept()).toEqual(before.map((r) => r.id));

    clock.set('1990-03-01T00:00:00Z');
    await pruneAcksBehindWatermarks(t.deps.db, daysBefore(clock.now(), 30));
    expect(await kept()).toEqual([]);
    token = await t.oauthToken(c.client_id, c.client_secret);

    // Both revisions are behind the consumer's watermark: acked. Each repeat answers the newest ack time the pass
    // removed (the first ack of each is gone with its row; each revision was acked by then) and stores no ack.
    for (const revision of revisions) {
      const again = await ack(token, revision);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual({ revision_id: revision, acked: true, acked_at: second.body.data.acked_at });
    }
    const byBooking = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/ack`, { token });
    expect(byBooking.status).toBe(200);
    expect(byBooking.body.data).toEqual({
      booking_id: b.external_booking_id,
      inbound_booking_id: b.id,
      acked_now: 0,
      acked_revision_ids: revisions,
    });
    expect(await kept()).toEqual([]);
    expect((await feed(token, { since: 0 })).body.data.booking_revisions).toEqual([]);

    // A revision appended since is acked as ever, and listed beside the old ones.
    const cancelled = (await t.ops('POST', `/ops/bookings/${b.id}/cancel`, { cancelled_by: 'guest', reason_code: 'x' }))
      .body.data;
    const latest = await t.request('POST', `/v1/qc/bookings/${b.external_booking_id}/ack`, { token });
    expect(latest.body.data).toMatchObject({ acked_now: 1, acked_revision_ids: [...revisions, cancelled.revision_id] });
    expect(await kept()).toEqual([cancelled.revision_id]);
    clock.set(resume);
  });
});
