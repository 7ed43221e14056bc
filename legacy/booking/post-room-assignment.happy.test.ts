import { describe, expect, it } from 'bun:test';
import { legacyTest } from '../legacy-test-fixture.ts';

const { t, f } = legacyTest();

async function sentItem() {
  const bookingId = await f.book();
  const revision = (await f.call('booking/getBookings', { query: { booking_id: bookingId } })).body.data[0];
  return { bookingId, itemId: revision.booking_items[0].booking_item_id as number };
}

const assign = (body: unknown, key?: string) => f.call('booking/postRoomAssignment', { body, key });

async function state(bookingId: number, itemId: number) {
  const [row] = await t.deps.db.sql<{
    room_number: string | null;
    self_checkin_code: string | null;
    pms_key_id: number | null;
    events: number;
  }>`
    select room_number, self_checkin_code, pms_key_id,
      (select count(*) from legacy_customer_events where booking_id = ${bookingId} and type = 'room_assignment')::int as events
    from booking_rooms where id = ${itemId}`;
  return row;
}

describe('postRoomAssignment', () => {
  it('records the room on the item, binds it to this PMS and logs a room-assignment customer event', async () => {
    const s = await sentItem();
    const res = await assign({
      booking_id: s.bookingId,
      booking_item_id: s.itemId,
      room_number: 101,
      self_checkin_code: 'K-77',
    });
    expect(res.text).toBe('{"message":"Success"}');
    expect(await state(s.bookingId, s.itemId)).toEqual({
      room_number: '101',
      self_checkin_code: 'K-77',
      pms_key_id: f.keyId,
      events: 1,
    });
    await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number: '102' });
    expect(await state(s.bookingId, s.itemId)).toEqual({
      room_number: '102',
      self_checkin_code: 'K-77',
      pms_key_id: f.keyId,
      events: 2,
    });
  });

  it('refuses a room number that is no text, as missing, and stores nothing ([object Object] before)', async () => {
    const s = await sentItem();
    for (const room_number of [{ floor: 1 }, ['101'], true]) {
      const res = await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number });
      expect([res.status, res.text]).toEqual([
        400,
        '{"message":"Bad request data! (booking_id, booking_item_id or room_number missing)"}',
      ]);
    }
    expect(await state(s.bookingId, s.itemId)).toEqual({
      room_number: null,
      self_checkin_code: null,
      pms_key_id: null,
      events: 0,
    });
  });

  it('takes a self check-in code that is no text as not sent, as ackBooking does', async () => {
    const s = await sentItem();
    await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number: '101', self_checkin_code: 'K-1' });
    const res = await assign({
      booking_id: s.bookingId,
      booking_item_id: s.itemId,
      room_number: '102',
      self_checkin_code: { code: 'K-2' },
    });
    expect(res.text).toBe('{"message":"Success"}');
    expect(await state(s.bookingId, s.itemId)).toEqual({
      room_number: '102',
      self_checkin_code: 'K-1',
      pms_key_id: f.keyId,
      events: 2,
    });
    const [event] = await t.deps.db.sql<{ self_checkin_code: string | null }>`
      select self_checkin_code from legacy_customer_events where booking_item_id = ${s.itemId} and room_number = '102'`;
    expect(event?.self_checkin_code).toBeNull();
  });

  it('refuses an item another PMS touched first', async () => {
    const s = await sentItem();
    await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number: '101' });
    const other = await f.anotherKey();
    const res = await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number: '999' }, other.key);
    expect([res.status, res.text]).toEqual([404, '{"message":"Missing booking item!"}']);
    expect((await state(s.bookingId, s.itemId))?.room_number).toBe('101');
  });

  it('answers a failed write with a support ticket that finds the logged incident, and writes nothing', async () => {
    const s = await sentItem();
    const res = await assign({ booking_id: s.bookingId, booking_item_id: s.itemId, room_number: 'X'.repeat(40) });
    expect([res.status, res.text]).toEqual([400, '{"message":"Error when try to post room assignment!"}']);
    const ticket = res.headers.get('x-support-ticket') as string;
    let incident: { status: number; error_key: string } | undefined;
    for (let i = 0; i < 50 && !incident; i++) {
      [incident] = await t.deps.db.sql<{
        status: number;
        error_key: string;
      }>`select status, error_key from incidents where ticket = ${ticket}`;
      if (!incident) await Bun.sleep(20);
    }
    expect(incident).toEqual({ status: 400, error_key: 'legacy.room_assignment_failed' });
    expect(await state(s.bookingId, s.itemId)).toEqual({
      room_number: null,
      self_checkin_code: null,
      pms_key_id: null,
      events: 0,
    });
  });
});
