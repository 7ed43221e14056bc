import { describe, expect, it } from 'bun:test';
import {
  addRatePlan,
  addRoomType,
  calendarSnapshot,
  inventoryTest,
  PER_ROOM,
  postPlanRates,
} from '../inventory/test-fixtures.ts';

const { t, f } = inventoryTest();

const write = (plan: string, values: unknown) => postPlanRates(t, f, plan, values);
const codesOf = (body: { data: { errors: { row: number; code: string }[] } }) =>
  body.data.errors.map((e) => [e.row, e.code]);

describe('POST /rate_plans/{id}/rates row errors (200 with errors[])', () => {
  it('refuses entries that are not objects, and rows with nothing valid to write, as malformed_row', async () => {
    const res = await write(f.plans.person.external_id, [
      5,
      null,
      [],
      'row',
      { date: '2026-07-01', prices: [1] },
      { date: '2026-07-01', prices: { A1: -1 } },
      { date: '2026-07-01', prices: { A1: '10' } },
      { date: '2026-07-01' },
      { date: '2026-07-01', restrictions: { min_los: 0 } },
      { date: '2026-07-01', restrictions: { min_los: 4, max_los: 2 } },
      { date: '2026-07-01', restrictions: { stop_sell: 'yes' } },
      { date: '2026-07-01', prices: { A1: 10 } },
    ]);
    expect(res.status).toBe(200);
    expect(codesOf(res.body)).toEqual(Array.from({ length: 11 }, (_, i) => [i, 'malformed_row']));
    expect(res.body.data).toMatchObject({ accepted: 1, written: 1 });
    expect(res.body.data.errors[5]).toMatchObject({ field: 'prices.A1' });
  });

  it('refuses a missing or malformed date as bad_date', async () => {
    const res = await write(f.plans.person.external_id, [
      { prices: { A1: 1 } },
      { date: '2026-13-01', prices: { A1: 1 } },
      { date: '2026-02-29', prices: { A1: 1 } },
      { date: 20260701, prices: { A1: 1 } },
    ]);
    expect(codesOf(res.body)).toEqual([
      [0, 'bad_date'],
      [1, 'bad_date'],
      [2, 'bad_date'],
      [3, 'bad_date'],
    ]);
    expect(res.body.data.accepted).toBe(0);
  });

  it('refuses an empty occupancy key as bad_acm_key', async () => {
    const res = await write(f.plans.person.external_id, [
      { date: '2026-07-01', prices: { '': 1 } },
      { date: '2026-07-01', prices: { ' ': 1 } },
    ]);
    expect(codesOf(res.body)).toEqual([
      [0, 'bad_acm_key'],
      [1, 'bad_acm_key'],
    ]);
  });

  it('refuses a code longer than any vocabulary holds as bad_acm_key on a pair with no configured vocabulary', async () => {
    const tooLong = 'X'.repeat(21);
    const res = await write(f.plans.open.external_id, [
      { date: '2026-07-01', prices: { [tooLong]: 1 } },
      { date: '2026-07-02', prices: { ['Y'.repeat(20)]: 2 } },
    ]);
    expect(res.body.data.errors).toEqual([
      { row: 0, code: 'bad_acm_key', field: 'prices', date: '2026-07-01', message: expect.stringContaining(tooLong) },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 1 });
    const stored = await t.deps.db.sql<{ date: string }>`select date from rates where rate_plan_id = ${f.plans.open.id}
      and date between '2026-07-01' and '2026-07-02' order by date`;
    expect(stored.map((d) => d.date)).toEqual(['2026-07-02']);
  });

  it('refuses a code outside the writable vocabulary as unknown_acm_code, listing the allowed codes', async () => {
    const res = await write(f.plans.person.external_id, [
      { date: '2026-07-04', prices: { A1: 10, ZZ: 1 } },
      { date: '2026-07-05', prices: { AEB: 10 } },
      { date: '2026-07-06', prices: { A2: 10 } },
    ]);
    expect(res.body.data.errors).toEqual([
      {
        row: 0,
        code: 'unknown_acm_code',
        date: '2026-07-04',
        room_type_id: f.rooms.double.external_id,
        unknown_code: 'ZZ',
        allowed_codes: ['A1', 'A2'],
      },
      {
        row: 1,
        code: 'unknown_acm_code',
        date: '2026-07-05',
        room_type_id: f.rooms.double.external_id,
        unknown_code: 'AEB',
        allowed_codes: ['A1', 'A2'],
      },
    ]);
    expect(res.body.data).toMatchObject({ accepted: 1, written: 1 });
    const days = await t.deps.db.sql<{ date: string }>`select date from rates where rate_plan_id = ${f.plans.person.id}
      and date between '2026-07-04' and '2026-07-06' order by date`;
    expect(days.map((d) => d.date)).toEqual(['2026-07-06']);
  });

  it('refuses a restriction key outside the whitelist as bad_restriction_key', async () => {
    const res = await write(f.plans.room.external_id, [{ date: '2026-07-01', restrictions: { min_stay: 2 } }]);
    expect(res.body.data.errors).toEqual([
      {
        row: 0,
        code: 'bad_restriction_key',
        field: 'restrictions.min_stay',
        date: '2026-07-01',
        message: expect.stringContaining('min_los'),
      },
    ]);
  });

  it('refuses a row with prices for a child plan as price_on_derived_rate, restrictions included', async () => {
    const res = await write(f.plans.child.external_id, [
      { date: '2026-07-08', prices: { ROOM: 10 }, restrictions: { stop_sell: true } },
      { date: '2026-07-08', restrictions: { min_los: 3 } },
    ]);
    expect(codesOf(res.body)).toEqual([[0, 'price_on_derived_rate']]);
    const rows = await t.deps.db
      .sql`select stop_sell, min_los from restrictions where rate_plan_id = ${f.plans.child.id}
      and room_type_id = ${f.rooms.double.id} and date = '2026-07-08'`;
    expect(rows).toEqual([{ stop_sell: null, min_los: 3 }]);
  });

  it('refuses a room type the plan does not sell as unknown_room_type', async () => {
    const res = await write(f.plans.person.external_id, [
      { date: '2026-07-01', room_type_id: f.rooms.suite.external_id, prices: { A1: 1 } },
    ]);
    expect(res.body.data.errors).toEqual([
      {
        row: 0,
        code: 'unknown_room_type',
        date: '2026-07-01',
        room_type_id: f.rooms.suite.external_id,
        message: expect.any(String),
      },
    ]);
  });

  it('reports every row as write_failed when the write itself fails, and writes nothing', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const plan = await addRatePlan(t.deps.db, f.live.id, {
      sellType: 'per_room',
      pairs: [{ roomTypeId: room.id, occupancies: PER_ROOM }],
    });
    // Fault injection: the database refuses restriction writes for this one room type.
    await t.deps.db.query(`create function fail_restriction_${room.id}() returns trigger language plpgsql as $$
      begin raise exception 'disk quota exceeded'; end $$`);
    await t.deps.db.query(`create trigger fail_restriction_${room.id} before insert or update on restrictions
      for each row when (new.room_type_id = ${room.id}) execute function fail_restriction_${room.id}()`);
    try {
      const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
      const res = await write(plan.external_id, [
        { date: '2026-07-01', prices: { ROOM: 10 } },
        { date: '2026-07-02', restrictions: { stop_sell: true } },
        { date: 'bad', prices: { ROOM: 10 } },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ accepted: 0, written: 0, unchanged: 0, dry: false });
      expect(res.body.data.errors).toEqual([
        { row: 0, code: 'write_failed', date: '2026-07-01', message: 'disk quota exceeded' },
        { row: 1, code: 'write_failed', date: '2026-07-02', message: 'disk quota exceeded' },
        { row: 2, code: 'bad_date', field: 'date', message: expect.any(String) },
      ]);
      const after = (await calendarSnapshot(t.deps.db, f.demo.customer_id)) as {
        rates: unknown;
        outbox: { data: unknown }[];
      };
      expect(after.rates).toEqual((before as { rates: unknown }).rates);
      // The event still tells the partner's subscribers that nothing of it was written.
      expect(after.outbox.at(-1)?.data).toMatchObject({
        endpoint: 'qc.rates.write',
        success: 0,
        failed: 3,
        written: 0,
      });
    } finally {
      await t.deps.db.query(`drop trigger fail_restriction_${room.id} on restrictions`);
      await t.deps.db.query(`drop function fail_restriction_${room.id}()`);
    }
  });
});

describe('POST /rate_plans/{id}/rates whole-request refusals', () => {
  it('refuses more than 1000 rows with 422 errors.qc.batch_too_large', async () => {
    const res = await write(
      f.plans.room.external_id,
      Array.from({ length: 1001 }, () => ({ date: '2026-07-01', prices: { ROOM: 1 } })),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.batch_too_large', limit: 'rows', max: 1000 });
  });

  it('refuses rows that expand to more than 20000 day-rows over the plan room types with 422 errors.qc.batch_too_large', async () => {
    const rooms = [];
    for (let i = 0; i < 21; i++) rooms.push(await addRoomType(t.deps.db, f.live.id));
    const plan = await addRatePlan(t.deps.db, f.live.id, {
      sellType: 'per_room',
      pairs: rooms.map((r) => ({ roomTypeId: r.id, occupancies: PER_ROOM })),
    });
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    const res = await write(
      plan.external_id,
      Array.from({ length: 1000 }, () => ({ date: '2026-07-01', prices: { ROOM: 1 } })),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      message: 'errors.qc.batch_too_large',
      limit: 'day_rows',
      max: 20000,
      actual: 21000,
    });
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('refuses a body without a values array with 422, and an unknown plan with 404', async () => {
    const res = await write(f.plans.room.external_id, { date: '2026-07-01' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.validation_error');
    expect((await write('NO-SUCH-PLAN', [{ date: '2026-07-01', prices: { ROOM: 1 } }])).status).toBe(404);
  });
});
