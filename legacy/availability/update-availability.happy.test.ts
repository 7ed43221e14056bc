import { describe, expect, it } from 'bun:test';
import { createLegacyKey } from '../../server/legacy-cutover/legacy-keys.ts';
import { EMBEDDED } from '../../server/testing/harness.ts';
import { type LegacyFixture, legacyFixture, legacyTestAppPerFile } from '../legacy-test-fixture.ts';
import { linkExtRoom } from './rooms.ts';
import { writeLegacyAvailability } from './update-availability.ts';

const t = legacyTestAppPerFile();

interface Day {
  date: string;
  offered: number;
  booked: number;
  opened: boolean;
  set_at: Date;
}

async function days(roomId: number, from: string, to: string): Promise<Day[]> {
  return t.deps.db.sql<Day>`select date, offered, booked, opened, set_at from availability
    where room_type_id = ${roomId} and date between ${from}::date and ${to}::date order by date`;
}

const push = (f: LegacyFixture, values: unknown[]) => f.call('availability/updateAvailability', { body: { values } });
// The calendar rows the demo seeds start today; these tests use their own rooms' dates far from them.
const fresh = async () => {
  const f = await legacyFixture(t);
  await t.deps.db.sql`delete from availability where room_type_id = any(${f.roomIds}::bigint[])`;
  return f;
};

describe('updateAvailability', () => {
  it('stores qty plus the booked count as offered, so the PMS qty is what stays sellable', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    await f.book({ checkinDate: '2030-07-01', checkoutDate: '2030-07-03' });
    const res = await push(f, [{ room_id: room, date_from: '2030-07-01', date_to: '2030-07-03', qty: 3 }]);
    expect([res.status, res.text]).toEqual([200, '{"message":"Success"}']);
    expect((await days(room, '2030-07-01', '2030-07-03')).map((d) => [d.offered, d.booked])).toEqual([
      [4, 1],
      [4, 1],
      [3, 0],
    ]);
  });

  it('stores opened, and closed as its negation, without touching quantities', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    await push(f, [{ room_id: room, date: '2030-07-10', qty: 2 }]);
    await push(f, [{ room_id: room, date: '2030-07-10', closed: true }]);
    expect((await days(room, '2030-07-10', '2030-07-10')).map((d) => [d.offered, d.opened])).toEqual([[2, false]]);
    await push(f, [{ room_id: room, date: '2030-07-10', opened: '1' }]);
    expect((await days(room, '2030-07-10', '2030-07-10')).map((d) => [d.offered, d.opened])).toEqual([[2, true]]);
    await push(f, [{ room_id: room, date: '2030-07-10', closed: 0, qty: '5' }]);
    expect((await days(room, '2030-07-10', '2030-07-10')).map((d) => [d.offered, d.opened])).toEqual([[5, true]]);
  });

  it('stamps every day it writes with today 05:00 property-local (Lisbon, UTC+1 in June)', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    await push(f, [{ room_id: room, date_from: '2030-08-01', date_to: '2030-08-03', qty: 1 }]);
    const stamps = (await days(room, '2030-08-01', '2030-08-03')).map((d) => new Date(d.set_at).toISOString());
    expect(stamps).toEqual(Array(3).fill('2030-06-15T04:00:00.000Z'));
  });

  it('skips rows outside yesterday .. today + 2 years silently and trims rows straddling it', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    const res = await push(f, [
      { room_id: room, date_from: '2030-06-01', date_to: '2030-06-13', qty: 1 },
      { room_id: room, date_from: '2030-06-10', date_to: '2030-06-15', qty: 2 },
      { room_id: room, date_from: '2032-06-13', date_to: '2032-06-20', qty: 3 },
      { room_id: room, date: '2032-06-16', qty: 'not even checked' },
    ]);
    expect(res.text).toBe('{"message":"Success"}');
    expect((await days(room, '2030-01-01', '2030-12-31')).map((d) => [d.date, d.offered])).toEqual([
      ['2030-06-14', 2],
      ['2030-06-15', 2],
    ]);
    expect((await days(room, '2032-01-01', '2032-12-31')).map((d) => d.date)).toEqual([
      '2032-06-13',
      '2032-06-14',
      '2032-06-15',
    ]);
  });

  it('writes through ext_room_id once the PMS declared it and the hotelier linked it', async () => {
    const f = await fresh();
    const room = f.roomIds[1] as number;
    const mapping = (ids: string[]) =>
      f.call('property/postExternalPropertyData', {
        body: {
          property: { id: 'H1', name: 'Hotel', mapping_data: { rooms_types: ids.map((id) => ({ id, name: id })) } },
        },
      });
    const row = { ext_room_id: 'APT-PMS', date: '2030-07-20', qty: 4 };
    await mapping(['APT-PMS']);
    expect((await push(f, [row])).status).toBe(404);
    await linkExtRoom(t.deps.db, f.keyId, 'APT-PMS', room);
    expect((await push(f, [row])).text).toBe('{"message":"Success"}');
    expect((await days(room, '2030-07-20', '2030-07-20'))[0]?.offered).toBe(4);
    await mapping(['OTHER']);
    expect((await push(f, [row])).status).toBe(404);
  });

  it('applies rows one by one: a failing row answers its message and leaves the earlier rows written', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    const res = await push(f, [
      { room_id: room, date: '2030-09-01', qty: 1 },
      { room_id: room, date: '2030-09-02', qty: 2 },
      { room_id: room, date: '2030-09-03', qty: -1 },
      { room_id: room, date: '2030-09-04', qty: 4 },
    ]);
    expect(res.status).toBe(400);
    expect((await days(room, '2030-09-01', '2030-09-30')).map((d) => [d.date, d.offered])).toEqual([
      ['2030-09-01', 1],
      ['2030-09-02', 2],
    ]);
  });

  it('is last-write-wins per room and day: concurrent range writes never interleave within a row', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    const writes = [1, 2, 3, 4, 5].map((qty) =>
      push(f, [{ room_id: room, date_from: '2030-10-01', date_to: '2030-10-10', qty }]),
    );
    expect((await Promise.all(writes)).every((r) => r.status === 200)).toBe(true);
    const offered = new Set((await days(room, '2030-10-01', '2030-10-10')).map((d) => d.offered));
    expect(offered.size).toBe(1);
    await push(f, [{ room_id: room, date: '2030-10-05', qty: 9 }]);
    expect((await days(room, '2030-10-05', '2030-10-05'))[0]?.offered).toBe(9);
  });

  it('checks every row on a shadow property but writes nothing', async () => {
    const f = await fresh();
    const [shadow] = await t.deps.db.sql<{ id: number; room: number }>`
      select p.id, r.id as room from properties p join room_types r on r.property_id = p.id
      where p.external_id = ${f.demo.properties[1]?.id}`;
    const { apiKey: key } = await createLegacyKey(t.deps, {
      customerId: f.customerId,
      propertyId: shadow?.id as number,
      active: true,
    });
    const call = (values: unknown[]) => f.call('availability/updateAvailability', { body: { values }, key });
    expect((await call([{ room_id: shadow?.room, date: '2030-07-01', qty: 3 }])).text).toBe('{"message":"Success"}');
    expect(await days(shadow?.room as number, '2030-07-01', '2030-07-01')).toEqual([]);
    const bad = await call([
      { room_id: shadow?.room, date: '2030-07-01', qty: 3 },
      { room_id: shadow?.room, date: '2030-07-01' },
    ]);
    expect(bad.status).toBe(400);
  });

  it('on a shadow property runs the real write as a dry run and says what it would have written', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    const caller = { keyId: f.keyId, customerId: f.customerId, propertyId: f.propertyId };
    const write = (qty: number) =>
      writeLegacyAvailability({
        deps: t.deps,
        caller: { ...caller, pmsName: 'PMS', timezone: 'Europe/Lisbon', currency: 'EUR', mode: 'live' },
        body: { values: [{ room_id: room, date_from: '2030-06-13', date_to: '2030-06-16', qty }] },
      });
    await t.deps.db.sql`update properties set mode = 'shadow' where id = ${f.propertyId}`;
    try {
      const dry = await write(2);
      expect(dry.counters).toEqual({
        written: 0,
        unchanged: 0,
        skipped_out_of_window: 0,
        dry: true,
        would: { written: 3, unchanged: 0, skipped_out_of_window: 1 },
      });
      expect(await days(room, '2030-06-13', '2030-06-16')).toEqual([]);
    } finally {
      await t.deps.db.sql`update properties set mode = 'live' where id = ${f.propertyId}`;
    }
    // The same write live writes exactly what the dry run said it would.
    expect((await write(2)).counters).toEqual({ written: 3, unchanged: 0, skipped_out_of_window: 1, dry: false });
    expect((await days(room, '2030-06-13', '2030-06-16')).map((d) => d.offered)).toEqual([2, 2, 2]);
  });

  it('says what a dry run would have written in X-Qc-Would: a shadow property, and X-Qc-Dry-Run on a live one', async () => {
    const f = await fresh();
    const room = f.roomIds[0] as number;
    const values = [{ room_id: room, date_from: '2030-06-13', date_to: '2030-06-16', qty: 2 }];
    const live = await f.call('availability/updateAvailability', { body: { values } });
    expect([live.text, live.headers.get('x-qc-would')]).toEqual(['{"message":"Success"}', null]);
    const dry = await f.call('availability/updateAvailability', {
      body: { values: [{ ...values[0], qty: 4 }] },
      headers: { 'X-Qc-Dry-Run': '1' },
    });
    expect(dry.text).toBe('{"message":"Success"}');
    expect(dry.headers.get('x-qc-would')).toBe('written=3, unchanged=0, skipped_out_of_window=1');
    expect((await days(room, '2030-06-13', '2030-06-16')).map((d) => d.offered)).toEqual([2, 2, 2]);
    await t.deps.db.sql`update properties set mode = 'shadow' where id = ${f.propertyId}`;
    try {
      const shadow = await f.call('availability/updateAvailability', { body: { values } });
      expect(shadow.headers.get('x-qc-would')).toBe('written=0, unchanged=3, skipped_out_of_window=1');
    } finally {
      await t.deps.db.sql`update properties set mode = 'live' where id = ${f.propertyId}`;
    }
  });

  // The busy turn holds its transaction while the test flips the mode: two transactions at once (not embedded).
  it.skipIf(EMBEDDED)(
    "reads the property's mode inside the actor turn: a flip to shadow while the call queues writes nothing",
    async () => {
      const f = await fresh();
      const room = f.roomIds[0] as number;
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // A turn of the property's actor is busy, so the call authenticates (reading live) and then queues;
      // the property flips to shadow only once the call has asked for its turn.
      const busy = t.deps.actors.run(f.propertyId, () => gate);
      const actors = t.deps.actors;
      const run = actors.run.bind(actors);
      let asked: () => void = () => {};
      const callAsked = new Promise<void>((resolve) => {
        asked = resolve;
      });
      actors.run = (propertyId, work) => {
        if (propertyId === f.propertyId) asked();
        return run(propertyId, work);
      };
      const call = push(f, [{ room_id: room, date: '2030-11-01', qty: 3 }]);
      await callAsked;
      actors.run = run;
      await t.deps.db.sql`update properties set mode = 'shadow' where id = ${f.propertyId}`;
      release();
      await busy;
      try {
        expect((await call).text).toBe('{"message":"Success"}');
        expect(await days(room, '2030-11-01', '2030-11-01')).toEqual([]);
      } finally {
        await t.deps.db.sql`update properties set mode = 'live' where id = ${f.propertyId}`;
      }
    },
  );
});
