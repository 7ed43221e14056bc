import { describe, expect, it } from 'bun:test';
import { createHash } from 'node:crypto';
import { cancelBooking, modifyBooking, seedBookings } from '../../server/bookings/intake.ts';
import { type LegacyFixture, legacyFixture, legacyTestAppPerFile, oldBookingId } from '../legacy-test-fixture.ts';

const t = legacyTestAppPerFile();

const hash = (algo: 'md5' | 'sha256', text: string) => createHash(algo).update(text).digest('hex');

/** The revision objects of a getBookings answer as raw text, split at the top level. */
function rawRevisions(text: string): string[] {
  const inner = text.slice('{"data":['.length, -2);
  return inner ? inner.split(/,(?=\{"revision_id")/) : [];
}

/** The content bytes a revision id derives from: the revision without its two leading revision fields. */
const contentOf = (raw: string) => `{${raw.replace(/^\{"revision_id":"[^"]*","revision_number":\d+,/, '')}`;

const fetch = (f: LegacyFixture, query: Record<string, string | number> = {}) =>
  f.call('booking/getBookings', { query });
const ids = (res: { body: { data: { booking_id: number }[] } }) => res.body.data.map((r) => r.booking_id);

describe('getBookings', () => {
  it('sends the legacy revision byte for byte, guest in clear, id derived from the content', async () => {
    const f = await legacyFixture(t);
    const id = await f.book();
    const res = await fetch(f, { booking_id: id });
    const [item] = await t.deps.db.sql<{ id: number }>`select id from booking_rooms where booking_id = ${id}`;
    const content =
      `{"booking_id":${id},"status":"confirmed","checkin_date":"2030-07-01","checkout_date":"2030-07-03","num_adults":2,` +
      `"num_children":0,"client":{"first_name":"Ana","last_name":"Sousa","email":"ana@example.com","phone":"+351911111111"},` +
      `"booking_items":[{"booking_item_id":${item?.id},"room_id":${f.roomIds[0]},"rate_id":${f.barPlanId},"checkin_date":"2030-07-01",` +
      `"checkout_date":"2030-07-03","num_adults":2,"price":240.0,"currency":"EUR"}]}`;
    const revisionId = `${id}-1-${hash('sha256', content).slice(0, 16)}`;
    expect(res.text).toBe(`{"data":[{"revision_id":"${revisionId}","revision_number":1,${content.slice(1)}]}`);
  });

  it('keeps the id while the content stays, gives a new id and a higher number on each change (ids from 161300)', async () => {
    const f = await legacyFixture(t);
    const id = await f.book();
    expect(id).toBeGreaterThanOrEqual(161300);
    const first = (await fetch(f, { booking_id: id })).body.data[0];
    expect((await fetch(f, { booking_id: id })).body.data[0].revision_id).toBe(first.revision_id);
    await modifyBooking(t.deps, id, { guest: { phone: '+351900000000' } });
    const second = (await fetch(f, { booking_id: id })).body.data[0];
    await modifyBooking(t.deps, id, { guest: { phone: '+351911111111' } });
    const third = (await fetch(f, { booking_id: id })).body.data[0];
    expect([first.revision_number, second.revision_number, third.revision_number]).toEqual([1, 2, 3]);
    expect(new Set([first.revision_id, second.revision_id, third.revision_id]).size).toBe(3);
  });

  it('uses the MD5 of the payload and number 1 below booking id 161300', async () => {
    const f = await legacyFixture(t);
    const id = await f.book({ id: await oldBookingId(t) });
    expect(id).toBeLessThan(161300);
    const before = rawRevisions((await fetch(f, { booking_id: id })).text)[0] as string;
    await modifyBooking(t.deps, id, { guest: { lastName: 'Pereira' } });
    const after = rawRevisions((await fetch(f, { booking_id: id })).text)[0] as string;
    for (const raw of [before, after]) {
      const revision = JSON.parse(raw);
      expect(revision.revision_number).toBe(1);
      expect(revision.revision_id).toBe(hash('md5', contentOf(raw)));
    }
    expect(JSON.parse(after).revision_id).not.toBe(JSON.parse(before).revision_id);
  });

  it('sends bookings checking in from yesterday on, not requested, not acked, ascending', async () => {
    const f = await legacyFixture(t);
    const demoBookings = ids(await fetch(f));
    const tooOld = await f.book({ checkinDate: '2030-06-13', checkoutDate: '2030-06-16' });
    const yesterday = await f.book({ checkinDate: '2030-06-14', checkoutDate: '2030-06-16' });
    const requested = await f.book();
    await t.deps.db.sql`update bookings set status = 'requested' where id = ${requested}`;
    const cancelled = await f.book();
    await cancelBooking(t.deps, cancelled, { cancelledBy: 'guest', reasonCode: 'changed_plans' });
    const res = await fetch(f);
    expect(ids(res).filter((i) => !demoBookings.includes(i))).toEqual([yesterday, cancelled]);
    expect(ids(res)).not.toContain(tooOld);
    expect(res.body.data.find((r: { booking_id: number }) => r.booking_id === cancelled).status).toBe('cancelled');

    const sent = res.body.data.find((r: { booking_id: number }) => r.booking_id === yesterday);
    await f.call('booking/ackBooking', { body: { booking_id: yesterday, revision_id: sent.revision_id } });
    expect(ids(await fetch(f))).not.toContain(yesterday);
    expect((await fetch(f, { booking_id: yesterday })).body.data[0].revision_id).toBe(sent.revision_id);
    expect((await fetch(f, { booking_id: tooOld })).text).toBe('{"data":[]}');
  });

  it('after a first call looks at what changed: a new booking, a change to a sent one, a silently seeded one', async () => {
    const f = await legacyFixture(t);
    const sent = await f.book();
    const first = (await fetch(f)).body.data.find((r: { booking_id: number }) => r.booking_id === sent);
    await f.call('booking/ackBooking', { body: { booking_id: sent, revision_id: first.revision_id } });
    expect(ids(await fetch(f))).not.toContain(sent);
    // Later calls start from the property's mark (legacy_booking_marks); each of these must still be found.
    const created = await f.book({ guest: { firstName: 'Rui', lastName: 'Costa' } });
    await modifyBooking(t.deps, sent, { guest: { phone: '+351922222222' } });
    const [seeded] = await seedBookings(t.deps, f.propertyId, [
      {
        propertyId: f.propertyId,
        channel: 'EXP',
        externalBookingId: `seeded-${crypto.randomUUID()}`,
        guest: { firstName: 'Silent', lastName: 'Import' },
        checkinDate: '2030-07-05',
        checkoutDate: '2030-07-06',
        rooms: [{ roomTypeId: f.roomIds[0] as number, ratePlanId: f.barPlanId, adults: 1 }],
        totalPrice: 100,
      },
    ]);
    const again = await fetch(f);
    expect(ids(again)).toEqual(expect.arrayContaining([created, sent, seeded?.id]));
    expect(again.body.data.find((r: { booking_id: number }) => r.booking_id === sent).revision_number).toBe(2);
    // Unacked, they are answered again on the next call (the mark keeps them pending).
    expect(ids(await fetch(f))).toEqual(expect.arrayContaining([created, sent, seeded?.id]));
  });

  it('filters type=new (first sending) and type=modified (sent before with other content)', async () => {
    const f = await legacyFixture(t);
    const id = await f.book();
    expect(ids(await fetch(f, { type: 'new' }))).toContain(id);
    expect(ids(await fetch(f, { type: 'modified' }))).not.toContain(id);
    await modifyBooking(t.deps, id, { checkoutDate: '2030-07-04' });
    expect(ids(await fetch(f, { type: 'new' }))).not.toContain(id);
    const modified = (await fetch(f, { type: 'modified' })).body.data.find(
      (r: { booking_id: number }) => r.booking_id === id,
    );
    expect([modified.revision_number, modified.checkout_date]).toEqual([2, '2030-07-04']);
  });

  it('stays consistent with the modern feed and emits nothing into it', async () => {
    const f = await legacyFixture(t);
    const id = await f.book();
    const count = async () => {
      const [row] = await t.deps.db.sql<{ revisions: number; events: number }>`
        select (select count(*) from booking_revisions where booking_id = ${id})::int as revisions,
          (select count(*) from outbox_events where customer_id = ${f.customerId})::int as events`;
      return row;
    };
    const before = await count();
    const sent = (await fetch(f, { booking_id: id })).body.data[0];
    await f.call('booking/ackBooking', {
      body: {
        booking_id: id,
        revision_id: sent.revision_id,
        booking_items: [{ booking_item_id: sent.booking_items[0].booking_item_id, ext_reservation_id: 'R-1' }],
      },
    });
    await f.call('booking/postRoomAssignment', {
      body: { booking_id: id, booking_item_id: sent.booking_items[0].booking_item_id, room_number: '12' },
    });
    expect(await count()).toEqual(before);

    const token = await t.oauthToken(f.demo.client.client_id, f.demo.client.client_secret);
    const modern = await t.request('GET', `/v1/qc/properties/${f.demo.properties[0]?.id}/bookings/${id}`, { token });
    expect(modern.body.data.rooms.map((r: { booking_item_id: number }) => r.booking_item_id)).toEqual([
      sent.booking_items[0].booking_item_id,
    ]);
    await t.request('POST', `/v1/qc/properties/${f.demo.properties[0]?.id}/bookings/${id}/cancel`, { token });
    const afterCancel = (await fetch(f, { booking_id: id })).body.data[0];
    expect([afterCancel.status, afterCancel.revision_number]).toEqual(['cancelled', 2]);
  });
});
