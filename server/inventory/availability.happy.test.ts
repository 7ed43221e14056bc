import { describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { validationEnvelope } from '../testing/error-envelope.ts';
import { startTestApp } from '../testing/harness.ts';
import { addRoomType, inventoryTest } from './test-fixtures.ts';

// Live property in Europe/Lisbon: today is 2026-06-15, so the window runs 2026-06-14 .. 2028-06-15.
const { t, f } = inventoryTest();

const push = (values: unknown[], property = f.live.external_id) =>
  t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, { token: f.token, body: { values } });
const read = (from: string, to: string, property = f.live.external_id) =>
  t.request('GET', `/v1/qc/properties/${property}/availability`, { token: f.token, query: { from, to } });
const datesOf = async (roomTypeId: string, from: string, to: string) => {
  const res = await read(from, to);
  expect(res.status).toBe(200);
  return res.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === roomTypeId)?.dates;
};
const stored = (roomTypeId: number) =>
  t.deps.db.sql<{ date: string; offered: number; booked: number }>`
    select date, offered, booked from availability where room_type_id = ${roomTypeId} order by date`;

describe('POST /inventory/availability', () => {
  it('writes free rooms per day and reads them back per room and date', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const res = await push([
      { room_type_id: room.external_id, date_from: '2026-07-01', date_to: '2026-07-03', availability: 4 },
    ]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'ok',
      message: 'accepted',
      data: { written: 3, unchanged: 0, skipped_out_of_window: 0, dry: false, warnings: [] },
    });
    expect(await datesOf(room.external_id, '2026-06-30', '2026-07-04')).toEqual({
      '2026-06-30': 0,
      '2026-07-01': 4,
      '2026-07-02': 4,
      '2026-07-03': 4,
      '2026-07-04': 0,
    });
  });

  it('stores offered as free plus the booked count and reads free back', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    await t.deps.db
      .sql`insert into availability (property_id, room_type_id, date, offered, booked) values (${f.live.id}, ${room.id}, '2026-07-10', 4, 2)`;
    const res = await push([
      { room_type_id: room.external_id, date_from: '2026-07-10', date_to: '2026-07-11', availability: 3 },
    ]);
    expect(res.body.data).toMatchObject({ written: 2, unchanged: 0 });
    expect(await stored(room.id)).toEqual([
      { date: '2026-07-10', offered: 5, booked: 2 },
      { date: '2026-07-11', offered: 3, booked: 0 },
    ]);
    // The stored offered 5 with 2 booked is already 3 free: nothing to write.
    expect(
      (
        await push([
          { room_type_id: room.external_id, date_from: '2026-07-10', date_to: '2026-07-10', availability: 3 },
        ])
      ).body.data,
    ).toMatchObject({ written: 0, unchanged: 1 });
    expect(await datesOf(room.external_id, '2026-07-10', '2026-07-11')).toEqual({ '2026-07-10': 3, '2026-07-11': 3 });
  });

  it('reads an overbooked day as zero free rooms', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    await t.deps.db
      .sql`insert into availability (property_id, room_type_id, date, offered, booked) values (${f.live.id}, ${room.id}, '2026-07-20', 1, 2)`;
    expect(await datesOf(room.external_id, '2026-07-20', '2026-07-20')).toEqual({ '2026-07-20': 0 });
  });

  it('lets later rows of a batch win for the same day and counts each day once', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const res = await push([
      { room_type_id: room.external_id, date_from: '2026-08-01', date_to: '2026-08-05', availability: 1 },
      { room_type_id: room.external_id, date_from: '2026-08-03', date_to: '2026-08-04', availability: 7 },
      { room_type_id: room.external_id, date_from: '2026-08-05', date_to: '2026-08-05', availability: 0 },
    ]);
    expect(res.body.data).toMatchObject({ written: 5, unchanged: 0, skipped_out_of_window: 0 });
    expect(await datesOf(room.external_id, '2026-08-01', '2026-08-05')).toEqual({
      '2026-08-01': 1,
      '2026-08-02': 1,
      '2026-08-03': 7,
      '2026-08-04': 7,
      '2026-08-05': 0,
    });
  });

  it('counts a repeated push as unchanged and rewrites only the days that differ', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const row = { room_type_id: room.external_id, date_from: '2026-09-01', date_to: '2026-09-10', availability: 2 };
    expect((await push([row])).body.data).toMatchObject({ written: 10, unchanged: 0 });
    const before = await t.deps.db.sql<{
      set_at: Date;
    }>`select set_at from availability where room_type_id = ${room.id} order by date`;
    expect((await push([row])).body.data).toMatchObject({ written: 0, unchanged: 10 });
    const after = await t.deps.db.sql<{
      set_at: Date;
    }>`select set_at from availability where room_type_id = ${room.id} order by date`;
    expect(after).toEqual(before);
    expect(
      (await push([row, { ...row, date_from: '2026-09-05', date_to: '2026-09-06', availability: 3 }])).body.data,
    ).toMatchObject({ written: 2, unchanged: 8 });
  });

  it('skips and counts days outside yesterday .. two years ahead, trimming straddling ranges', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const res = await push([
      // 2026-06-12 and 13 are before yesterday (2026-06-14); 14 and 15 are inside.
      { room_type_id: room.external_id, date_from: '2026-06-12', date_to: '2026-06-15', availability: 1 },
      // 2028-06-15 is the last day inside; 16 and 17 are beyond.
      { room_type_id: room.external_id, date_from: '2028-06-15', date_to: '2028-06-17', availability: 1 },
      { room_type_id: room.external_id, date_from: '2020-01-01', date_to: '2020-01-03', availability: 1 },
    ]);
    expect(res.body.data).toMatchObject({ written: 3, unchanged: 0, skipped_out_of_window: 7 });
    expect((await stored(room.id)).map((r) => r.date)).toEqual(['2026-06-14', '2026-06-15', '2028-06-15']);
  });

  it('takes the window from the property time zone', async () => {
    // 23:30 UTC on 2026-06-15 is already 2026-06-16 in Tokyo: yesterday there is 2026-06-15.
    const clock = new ManualClock('2026-06-15T23:30:00Z');
    const tokyo = await startTestApp({ clock });
    try {
      await t.deps.db.sql`update properties set timezone = 'Asia/Tokyo' where id = ${f.live.id}`;
      const room = await addRoomType(t.deps.db, f.live.id);
      const res = await tokyo.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/availability`, {
        token: f.token,
        body: {
          values: [{ room_type_id: room.external_id, date_from: '2026-06-14', date_to: '2026-06-15', availability: 1 }],
        },
      });
      expect(res.body.data).toMatchObject({ written: 1, skipped_out_of_window: 1 });
      expect((await stored(room.id)).map((r) => r.date)).toEqual(['2026-06-15']);
    } finally {
      await t.deps.db.sql`update properties set timezone = 'Europe/Lisbon' where id = ${f.live.id}`;
      await tokyo.close();
    }
  });

  it('accepts room type partner codes and property partner codes', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const property = f.demo.properties[0]?.partner_code as string;
    const res = await push(
      [{ room_type_id: room.partner_code, date_from: '2026-07-01', date_to: '2026-07-01', availability: 9 }],
      property,
    );
    expect(res.status).toBe(202);
    expect(res.body.data.written).toBe(1);
    expect((await stored(room.id))[0]?.offered).toBe(9);
  });

  it('records inventory.push.completed with the counters in the outbox', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const res = await push([
      { room_type_id: room.external_id, date_from: '2026-06-13', date_to: '2026-06-16', availability: 2 },
      { room_type_id: room.external_id, date_from: '2026-06-16', date_to: '2026-06-16', availability: 2 },
    ]);
    expect(res.status).toBe(202);
    const [event] = await t.deps.db.sql<{ type: string; property_id: number; data: Record<string, unknown> }>`
      select type, property_id, data from outbox_events where customer_id = ${f.demo.customer_id}
        and type = 'inventory.push.completed' order by id desc limit 1`;
    expect(event).toEqual({
      type: 'inventory.push.completed',
      property_id: f.live.id,
      data: {
        endpoint: 'qc.inventory.availability',
        property_id: f.live.external_id,
        success: 2,
        failed: 0,
        written: 3,
        unchanged: 0,
        skipped_out_of_window: 1,
        dry: false,
      },
    });
  });
});

describe('GET /availability', () => {
  it('answers every date of the range for every live room type, 0 where nothing was pushed', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    await push([{ room_type_id: room.external_id, date_from: '2026-10-01', date_to: '2026-10-02', availability: 6 }]);
    const res = await read('2026-10-02', '2026-10-05');
    expect(res.body.data.from).toBe('2026-10-02');
    expect(res.body.data.to).toBe('2026-10-05');
    const entry = res.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === room.external_id);
    expect(entry).toEqual({
      room_type_id: room.external_id,
      partner_code: room.partner_code,
      dates: { '2026-10-02': 6, '2026-10-03': 0, '2026-10-04': 0, '2026-10-05': 0 },
    });
    expect(Object.keys(entry.dates)).toEqual(['2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05']);
    const untouched = await addRoomType(t.deps.db, f.live.id);
    const later = await read('2026-10-31', '2026-11-01');
    const empty = later.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === untouched.external_id);
    expect(empty.dates).toEqual({ '2026-10-31': 0, '2026-11-01': 0 });
    const ids = res.body.data.rooms.map((r: { room_type_id: string }) => r.room_type_id);
    expect(ids).toContain(f.rooms.double.external_id);
    expect(ids).toContain(f.rooms.suite.external_id);
  });

  it('reads the whole accepted window in one call, a leap day included', async () => {
    // Yesterday .. the same date two years ahead: 2026-06-14 .. 2028-06-15, 733 days with 2028-02-29.
    const room = await addRoomType(t.deps.db, f.live.id);
    const edges = [
      { room_type_id: room.external_id, date_from: '2026-06-14', date_to: '2026-06-14', availability: 2 },
      { room_type_id: room.external_id, date_from: '2028-06-15', date_to: '2028-06-15', availability: 3 },
    ];
    expect((await push(edges)).body.data).toMatchObject({ written: 2, skipped_out_of_window: 0 });
    const res = await read('2026-06-14', '2028-06-15');
    expect(res.status).toBe(200);
    const dates = res.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === room.external_id).dates;
    expect(Object.keys(dates).length).toBe(733);
    expect([dates['2026-06-14'], dates['2028-02-29'], dates['2028-06-15']]).toEqual([2, 0, 3]);
    expect((await read('2026-06-14', '2028-06-16')).body.errors).toEqual({
      to: ['customer.availability.messages.range_too_long'],
    });
  });

  it('refuses a reversed, malformed or too long range with 422', async () => {
    const reversed = await read('2026-10-02', '2026-10-01');
    expect(reversed.status).toBe(422);
    expect(reversed.body).toEqual(
      validationEnvelope('to: breaks the rule "before_from".', { to: ['customer.availability.messages.before_from'] }),
    );
    expect((await read('2026-02-30', '2026-03-01')).body.errors).toEqual({
      from: ['customer.availability.messages.format'],
    });
    expect((await read('2026-01-01', '2028-01-04')).body.errors).toEqual({
      to: ['customer.availability.messages.range_too_long'],
    });
    expect((await read('tomorrow', '2026-03-01')).status).toBe(422);
  });
});
