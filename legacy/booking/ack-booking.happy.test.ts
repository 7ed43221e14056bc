import { describe, expect, it } from 'bun:test';
import { modifyBooking } from '../../server/bookings/intake.ts';
import { legacyTest } from '../legacy-test-fixture.ts';

const { t, f } = legacyTest();

const SUCCESS = '{"message":"Success"}';

async function sent(id: number) {
  const revision = (await f.call('booking/getBookings', { query: { booking_id: id } })).body.data[0];
  return { revisionId: revision.revision_id as string, itemId: revision.booking_items[0].booking_item_id as number };
}

const ack = (body: unknown, key?: string) => f.call('booking/ackBooking', { body, key });

async function item(id: number) {
  const [row] = await t.deps.db.sql<Record<string, unknown>>`
    select pms_status, pms_key_id, ext_reservation_id, room_number, self_checkin_code from booking_rooms where id = ${id}`;
  return row;
}

describe('ackBooking', () => {
  it('marks the items sync_ok with their annotations and binds them to this PMS', async () => {
    const id = await f.book();
    const s = await sent(id);
    const res = await ack({
      booking_id: String(id),
      revision_id: s.revisionId,
      booking_items: [
        { booking_item_id: s.itemId, ext_reservation_id: 5501, room_number: '204', self_checkin_code: '8812' },
      ],
    });
    expect(res.text).toBe(SUCCESS);
    expect(await item(s.itemId)).toEqual({
      pms_status: 'sync_ok',
      pms_key_id: f.keyId,
      ext_reservation_id: '5501',
      room_number: '204',
      self_checkin_code: '8812',
    });
  });

  it('acks the revision alone when no items are sent', async () => {
    const id = await f.book();
    const s = await sent(id);
    expect((await ack({ booking_id: id, revision_id: s.revisionId })).text).toBe(SUCCESS);
    expect((await item(s.itemId))?.pms_status).toBeNull();
    expect((await ack({ booking_id: id, revision_id: s.revisionId })).text).toBe(
      '{"message":"The ack was already sent!"}',
    );
  });

  it('matches revision_id byte for byte', async () => {
    const id = await f.book();
    const s = await sent(id);
    for (const variant of [s.revisionId.toUpperCase(), ` ${s.revisionId}`, `${s.revisionId}\n`]) {
      expect((await ack({ booking_id: id, revision_id: variant })).text).toBe(
        '{"message":"Missing booking revision!"}',
      );
    }
    expect((await ack({ booking_id: id, revision_id: s.revisionId })).text).toBe(SUCCESS);
  });

  it('leaves earlier revisions unacked when a later one is acked', async () => {
    const id = await f.book();
    const first = await sent(id);
    await modifyBooking(t.deps, id, { guest: { email: 'new@example.com' } });
    const second = await sent(id);
    expect(second.revisionId).not.toBe(first.revisionId);
    expect((await ack({ booking_id: id, revision_id: second.revisionId })).text).toBe(SUCCESS);
    expect((await ack({ booking_id: id, revision_id: first.revisionId })).text).toBe(SUCCESS);
    expect((await ack({ booking_id: id, revision_id: first.revisionId })).text).toBe(
      '{"message":"The ack was already sent!"}',
    );
  });

  it('refuses an item bound to another PMS, and writes nothing of that ack', async () => {
    const id = await f.book();
    const s = await sent(id);
    await ack({
      booking_id: id,
      revision_id: s.revisionId,
      booking_items: [{ booking_item_id: s.itemId, ext_reservation_id: 'A-1' }],
    });
    await modifyBooking(t.deps, id, { guest: { firstName: 'Inês' } });
    const next = await sent(id);
    const second = await f.anotherKey();
    const res = await ack(
      {
        booking_id: id,
        revision_id: next.revisionId,
        booking_items: [{ booking_item_id: s.itemId, ext_reservation_id: 'B-1' }],
      },
      second.key,
    );
    expect([res.status, res.text]).toEqual([404, '{"message":"Missing booking item!"}']);
    expect((await item(s.itemId))?.ext_reservation_id).toBe('A-1');
    expect((await ack({ booking_id: id, revision_id: next.revisionId })).text).toBe(SUCCESS);
  });

  it("stores a room number wider than postRoomAssignment's 32 characters as sent, as the port always has", async () => {
    // The legacy service's answer to one is not recorded: refusing it would turn a PMS's working acks into failures.
    const id = await f.book();
    const s = await sent(id);
    const res = await ack({
      booking_id: id,
      revision_id: s.revisionId,
      booking_items: [{ booking_item_id: s.itemId, ext_reservation_id: 'A-1', room_number: 'R'.repeat(33) }],
    });
    expect(res.text).toBe(SUCCESS);
    expect((await item(s.itemId))?.room_number).toBe('R'.repeat(33));
  });

  it('lets exactly one of two simultaneous acks of a revision through', async () => {
    const id = await f.book();
    const s = await sent(id);
    const answers = await Promise.all([1, 2].map(() => ack({ booking_id: id, revision_id: s.revisionId })));
    expect(answers.map((a) => a.text).sort()).toEqual([
      '{"message":"Success"}',
      '{"message":"The ack was already sent!"}',
    ]);
  });
});
