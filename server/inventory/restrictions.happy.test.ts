import { describe, expect, it } from 'bun:test';
import { addRoomWithPlans, inventoryTest, restrictionRow, storedRestrictions } from './test-fixtures.ts';

const { t, f } = inventoryTest();

describe('POST /inventory/restrictions', () => {
  const pushRestrictions = (values: unknown[]) =>
    t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/restrictions`, {
      token: f.token,
      body: { values },
    });

  it('sets only the fields a row sends and keeps the others', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const ids = { room_type_id: room.external_id, rate_plan_id: perRoom.external_id };
    expect(
      (
        await pushRestrictions([
          { ...ids, date_from: '2026-07-01', date_to: '2026-07-02', min_los: 3, closed_to_arrival: true },
        ])
      ).body.data,
    ).toEqual({ written: 2, unchanged: 0, skipped_out_of_window: 0, dry: false, warnings: [] });
    const res = await pushRestrictions([
      { ...ids, date_from: '2026-07-02', date_to: '2026-07-03', stop_sell: true, max_los: 7 },
    ]);
    expect(res.body.data).toMatchObject({ written: 2, unchanged: 0 });
    expect(await storedRestrictions(t.deps.db, perRoom, room)).toEqual([
      restrictionRow('2026-07-01', { min_los: 3, closed_to_arrival: true }),
      restrictionRow('2026-07-02', { min_los: 3, max_los: 7, stop_sell: true, closed_to_arrival: true }),
      restrictionRow('2026-07-03', { max_los: 7, stop_sell: true }),
    ]);
    expect(
      (await pushRestrictions([{ ...ids, date_from: '2026-07-01', date_to: '2026-07-03', closed_to_departure: false }]))
        .body.data,
    ).toMatchObject({ written: 3, unchanged: 0 });
    expect(
      (await pushRestrictions([{ ...ids, date_from: '2026-07-01', date_to: '2026-07-02', min_los: 3 }])).body.data,
    ).toMatchObject({ written: 0, unchanged: 2 });
  });

  it('accepts restrictions on a child plan, stored under the child', async () => {
    const res = await pushRestrictions([
      {
        room_type_id: f.rooms.double.external_id,
        rate_plan_id: f.plans.child.external_id,
        date_from: '2026-07-05',
        date_to: '2026-07-05',
        stop_sell: true,
      },
    ]);
    expect(res.body.data).toMatchObject({ written: 1, warnings: [] });
    expect(await storedRestrictions(t.deps.db, f.plans.child, f.rooms.double)).toEqual([
      restrictionRow('2026-07-05', { stop_sell: true }),
    ]);
  });

  it('lets a later row win per field for the same day', async () => {
    const { room, perRoom } = await addRoomWithPlans(t.deps.db, f.live.id);
    const ids = { room_type_id: room.external_id, rate_plan_id: perRoom.external_id };
    const res = await pushRestrictions([
      { ...ids, date_from: '2026-07-01', date_to: '2026-07-01', min_los: 2, stop_sell: true },
      { ...ids, date_from: '2026-07-01', date_to: '2026-07-01', stop_sell: false },
    ]);
    expect(res.body.data).toMatchObject({ written: 1 });
    expect(await storedRestrictions(t.deps.db, perRoom, room)).toEqual([
      restrictionRow('2026-07-01', { min_los: 2, stop_sell: false }),
    ]);
  });
});
