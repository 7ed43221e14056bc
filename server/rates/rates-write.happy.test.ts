import { describe, expect, it } from 'bun:test';
import {
  addRatePlan,
  addRoomType,
  inventoryTest,
  PER_PERSON,
  PER_ROOM,
  postPlanRates,
  type Ref,
} from '../inventory/test-fixtures.ts';

const { t, f } = inventoryTest();

const write = (plan: string, values: unknown[]) => postPlanRates(t, f, plan, values);
const stored = (plan: Ref) =>
  t.deps.db.sql<{ room_type_id: number; date: string; prices: Record<string, number> }>`
    select room_type_id, date, prices from rates where rate_plan_id = ${plan.id} order by room_type_id, date`;

/** Two fresh rooms sold by a fresh per_room plan. */
async function freshPlan() {
  const a = await addRoomType(t.deps.db, f.live.id);
  const b = await addRoomType(t.deps.db, f.live.id);
  const plan = await addRatePlan(t.deps.db, f.live.id, {
    sellType: 'per_room',
    pairs: [a, b].map((r) => ({ roomTypeId: r.id, occupancies: PER_ROOM })),
  });
  return { a, b, plan };
}

describe('POST /rate_plans/{id}/rates', () => {
  it('writes each row on every room type of the plan and answers the accepted count', async () => {
    const { a, b, plan } = await freshPlan();
    const res = await write(plan.external_id, [
      { date: '2026-07-01', prices: { ROOM: 100 } },
      { date: '2026-07-02', prices: { ROOM: 110 }, restrictions: { min_los: 2 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      message: 'ok',
      data: { accepted: 2, written: 6, unchanged: 0, skipped_out_of_window: 0, dry: false, errors: [] },
    });
    expect(await stored(plan)).toEqual([
      { room_type_id: a.id, date: '2026-07-01', prices: { ROOM: 100 } },
      { room_type_id: a.id, date: '2026-07-02', prices: { ROOM: 110 } },
      { room_type_id: b.id, date: '2026-07-01', prices: { ROOM: 100 } },
      { room_type_id: b.id, date: '2026-07-02', prices: { ROOM: 110 } },
    ]);
    const again = await write(plan.partner_code, [{ date: '2026-07-01', prices: { ROOM: 100 } }]);
    expect(again.body.data).toMatchObject({ accepted: 1, written: 0, unchanged: 2 });
  });

  it('narrows a row to one room type with room_type_id', async () => {
    const { a, b, plan } = await freshPlan();
    const res = await write(plan.external_id, [
      { date: '2026-07-01', room_type_id: b.partner_code, prices: { ROOM: 70 } },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 1 });
    expect((await stored(plan)).map((r) => r.room_type_id)).toEqual([b.id]);
    expect(a.id).not.toBe(b.id);
  });

  it('names undeclared row fields in warnings beside data, restriction keys only as row errors', async () => {
    const { a, plan } = await freshPlan();
    const res = await write(plan.external_id, [
      { date: '2026-07-01', prices: { ROOM: 10 }, restriction: { min_los: 3 }, roomtype_id: a.partner_code },
      { date: '2026-07-02', restrictions: { min_stya: 2 } },
      5,
      { date: '2026-07-03', prices: null, restrictions: { min_los: 2 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([
      { field: 'values.0.restriction', key: 'errors.qc.unknown_field' },
      { field: 'values.0.roomtype_id', key: 'errors.qc.unknown_field' },
    ]);
    // The rows are read as before: the typo did not narrow row 0, the unknown restriction key is row 1's error.
    expect(res.body.data).toMatchObject({ accepted: 2, written: 4 });
    expect(res.body.data.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [1, 'bad_restriction_key'],
      [2, 'malformed_row'],
    ]);
  });

  it('lets later rows win per code for the same day', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const plan = await addRatePlan(t.deps.db, f.live.id, {
      sellType: 'per_person',
      pairs: [{ roomTypeId: room.id, occupancies: PER_PERSON }],
    });
    const res = await write(plan.external_id, [
      { date: '2026-07-01', prices: { A1: 80, A2: 100 } },
      { date: '2026-07-01', prices: { A2: 120 } },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 2, written: 1 });
    expect(await stored(plan)).toEqual([{ room_type_id: room.id, date: '2026-07-01', prices: { A1: 80, A2: 120 } }]);
  });

  it('takes restrictions-only rows on a child plan', async () => {
    const res = await write(f.plans.child.external_id, [
      { date: '2026-07-03', restrictions: { closed_to_departure: true } },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 2, errors: [] });
    const rows = await t.deps.db.sql`select room_type_id, closed_to_departure from restrictions
      where rate_plan_id = ${f.plans.child.id} and date = '2026-07-03' order by room_type_id`;
    expect(rows).toEqual([
      { room_type_id: f.rooms.double.id, closed_to_departure: true },
      { room_type_id: f.rooms.suite.id, closed_to_departure: true },
    ]);
  });

  it('skips rows outside the window without counting them as accepted or as errors', async () => {
    const { plan } = await freshPlan();
    const res = await write(plan.external_id, [
      { date: '2026-06-13', prices: { ROOM: 1 } },
      { date: '2026-06-14', prices: { ROOM: 1 } },
      { date: '2030-01-01', prices: { ROOM: 1 } },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 2, skipped_out_of_window: 4, errors: [] });
  });

  it('records inventory.push.completed with success and failed rows', async () => {
    const { plan } = await freshPlan();
    await write(plan.external_id, [
      { date: '2026-07-01', prices: { ROOM: 5 } },
      { date: 'soon', prices: { ROOM: 5 } },
    ]);
    const [event] = await t.deps.db.sql<{ data: Record<string, unknown> }>`
      select data from outbox_events where customer_id = ${f.demo.customer_id} and type = 'inventory.push.completed'
      order by id desc limit 1`;
    expect(event?.data).toEqual({
      endpoint: 'qc.rates.write',
      property_id: f.live.external_id,
      success: 1,
      failed: 1,
      written: 2,
      unchanged: 0,
      skipped_out_of_window: 0,
      dry: false,
    });
  });

  it('takes any code on a pair with no configured vocabulary', async () => {
    const res = await write(f.plans.open.external_id, [{ date: '2026-07-01', prices: { ANY: 3 } }]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 1, errors: [] });
  });

  it('reads back through GET rates what it wrote', async () => {
    const { a, plan } = await freshPlan();
    await write(plan.external_id, [
      { date: '2026-07-01', room_type_id: a.external_id, prices: { ROOM: 64 }, restrictions: { max_los: 9 } },
    ]);
    const res = await t.request('GET', `/v1/qc/properties/${f.live.external_id}/rate_plans/${plan.external_id}/rates`, {
      token: f.token,
      query: { from: '2026-07-01', to: '2026-07-01' },
    });
    expect(res.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === a.external_id)).toEqual({
      room_type_id: a.external_id,
      values: [{ date: '2026-07-01', prices: { ROOM: 64 }, restrictions: { max_los: 9 } }],
    });
  });
});
