import { describe, expect, it } from 'bun:test';
import { addRoomWithPlans, inventoryTest, type Ref, restrictionRow, storedRestrictions } from './test-fixtures.ts';

const { t, f } = inventoryTest();

const push = (values: unknown[]) =>
  t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/rates`, { token: f.token, body: { values } });
const storedPrices = (plan: Ref, room: Ref) =>
  t.deps.db.sql<{ date: string; prices: Record<string, number> }>`
    select date, prices from rates where rate_plan_id = ${plan.id} and room_type_id = ${room.id} order by date`;

describe('POST /inventory/rates', () => {
  it('writes the scalar rate of a per_room pair as its ROOM code', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const res = await push([
      {
        room_type_id: room.external_id,
        rate_plan_id: perRoom.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        rate: 120,
      },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ written: 2, unchanged: 0, skipped_out_of_window: 0, dry: false, warnings: [] });
    expect(await storedPrices(perRoom, room)).toEqual([
      { date: '2026-07-01', prices: { ROOM: 120 } },
      { date: '2026-07-02', prices: { ROOM: 120 } },
    ]);
  });

  it('accepts prices {ROOM} on a per_room pair and plan partner codes', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const res = await push([
      {
        room_type_id: room.partner_code,
        rate_plan_id: perRoom.partner_code,
        date_from: '2026-07-01',
        date_to: '2026-07-01',
        prices: { ROOM: 99.5 },
      },
    ]);
    expect(res.body.data.written).toBe(1);
    expect(await storedPrices(perRoom, room)).toEqual([{ date: '2026-07-01', prices: { ROOM: 99.5 } }]);
  });

  it('merges codes into the stored day: codes not sent keep their value', async () => {
    const { room, perPerson } = await addRoomWithPlans(t.deps.db, f.live.id);
    const ids = { room_type_id: room.external_id, rate_plan_id: perPerson.external_id };
    await push([{ ...ids, date_from: '2026-07-01', date_to: '2026-07-03', prices: { A1: 80, A2: 100 } }]);
    const res = await push([{ ...ids, date_from: '2026-07-02', date_to: '2026-07-03', prices: { A2: 110 } }]);
    expect(res.body.data).toMatchObject({ written: 2, unchanged: 0 });
    expect(await storedPrices(perPerson, room)).toEqual([
      { date: '2026-07-01', prices: { A1: 80, A2: 100 } },
      { date: '2026-07-02', prices: { A1: 80, A2: 110 } },
      { date: '2026-07-03', prices: { A1: 80, A2: 110 } },
    ]);
    // Sending a code with the value it already has changes nothing.
    expect(
      (await push([{ ...ids, date_from: '2026-07-01', date_to: '2026-07-03', prices: { A1: 80 } }])).body.data,
    ).toMatchObject({ written: 0, unchanged: 3 });
  });

  it('lets a later row win per code for the same day', async () => {
    const { room, perPerson } = await addRoomWithPlans(t.deps.db, f.live.id);
    const ids = { room_type_id: room.external_id, rate_plan_id: perPerson.external_id };
    const res = await push([
      { ...ids, date_from: '2026-07-01', date_to: '2026-07-02', prices: { A1: 80, A2: 100 } },
      { ...ids, date_from: '2026-07-02', date_to: '2026-07-02', prices: { A2: 130 } },
    ]);
    expect(res.body.data).toMatchObject({ written: 2, unchanged: 0 });
    expect(await storedPrices(perPerson, room)).toEqual([
      { date: '2026-07-01', prices: { A1: 80, A2: 100 } },
      { date: '2026-07-02', prices: { A1: 80, A2: 130 } },
    ]);
  });

  it('writes restriction fields carried by a price row, each table counted', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const res = await push([
      {
        room_type_id: room.external_id,
        rate_plan_id: perRoom.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        rate: 100,
        min_los: 2,
        stop_sell: false,
      },
    ]);
    expect(res.body.data).toMatchObject({ written: 4, unchanged: 0 });
    expect(await storedRestrictions(t.deps.db, perRoom, room)).toEqual([
      restrictionRow('2026-07-01', { min_los: 2, stop_sell: false }),
      restrictionRow('2026-07-02', { min_los: 2, stop_sell: false }),
    ]);
  });

  it('writes any code to a pair with no configured vocabulary', async () => {
    const res = await push([
      {
        room_type_id: f.rooms.suite.external_id,
        rate_plan_id: f.plans.open.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-01',
        prices: { XYZ: 5 },
      },
    ]);
    expect(res.body.data).toMatchObject({ written: 1, warnings: [] });
    expect(await storedPrices(f.plans.open, f.rooms.suite)).toEqual([{ date: '2026-07-01', prices: { XYZ: 5 } }]);
  });

  it('warns errors.qc.unknown_acm_code for a blank or over-long code on a pair with no configured vocabulary', async () => {
    const ids = { room_type_id: f.rooms.suite.external_id, rate_plan_id: f.plans.open.external_id };
    const tooLong = 'X'.repeat(21);
    const res = await push([
      { ...ids, date_from: '2026-07-03', date_to: '2026-07-03', prices: { '': 1, [tooLong]: 2, ' ': 3, XYZ: 4 } },
    ]);
    expect(res.status).toBe(202);
    const warned = (code: string) => ({ row: 0, key: 'errors.qc.unknown_acm_code', ...ids, code, allowed_codes: [] });
    expect(res.body.data).toMatchObject({ written: 1, warnings: [warned(''), warned(tooLong), warned(' ')] });
    expect(await storedPrices(f.plans.open, f.rooms.suite)).toContainEqual({ date: '2026-07-03', prices: { XYZ: 4 } });
  });

  it('skips and counts price days outside the window', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const res = await push([
      {
        room_type_id: room.external_id,
        rate_plan_id: perRoom.external_id,
        date_from: '2026-06-10',
        date_to: '2026-06-14',
        rate: 1,
      },
    ]);
    expect(res.body.data).toMatchObject({ written: 1, skipped_out_of_window: 4 });
    expect((await storedPrices(perRoom, room)).map((r) => r.date)).toEqual(['2026-06-14']);
  });
});
