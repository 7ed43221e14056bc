import { beforeAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { addRatePlan, calendarSnapshot, inventoryTest, PER_PERSON, PER_ROOM, type Ref } from './test-fixtures.ts';

/**
 * Spec 4.4 rule 1: while a property is shadow, pushes are validated exactly as for a live one, nothing is
 * written (not the calendar, not the outbox), `dry` is true and every counter is zero; `would` says what
 * the write would have done (shadow-would.happy.test.ts pins it against the live write).
 */
let person: Ref;
let child: Ref;

const { t, f } = inventoryTest();
beforeAll(async () => {
  person = await addRatePlan(t.deps.db, f.shadow.id, {
    sellType: 'per_person',
    pairs: [{ roomTypeId: f.shadowRoom.id, occupancies: PER_PERSON }],
  });
  child = await addRatePlan(t.deps.db, f.shadow.id, {
    sellType: 'per_room',
    parentId: f.shadowPlan.id,
    derivation: { percent: -10 },
    pairs: [{ roomTypeId: f.shadowRoom.id, occupancies: PER_ROOM }],
  });
});

const post = (path: string, values: unknown[]) =>
  t.request('POST', `/v1/qc/properties/${f.shadow.external_id}/${path}`, { token: f.token, body: { values } });
const DRY = { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: true };

describe('shadow property', () => {
  it('validates an availability push and writes nothing', async () => {
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    const res = await post('inventory/availability', [
      { room_type_id: f.shadowRoom.external_id, date_from: '2026-06-01', date_to: '2026-07-31', availability: 3 },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({
      ...DRY,
      would: { written: 48, unchanged: 0, skipped_out_of_window: 13 },
      warnings: [],
    });
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('reports the warnings a live push would, and writes neither prices nor the restrictions beside them', async () => {
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    const res = await post('inventory/rates', [
      {
        room_type_id: f.shadowRoom.external_id,
        rate_plan_id: person.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        prices: { A1: 5, AEB: 1, ZZ: 2 },
        min_los: 2,
      },
      {
        room_type_id: f.shadowRoom.external_id,
        rate_plan_id: child.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        rate: 5,
        stop_sell: true,
      },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject(DRY);
    expect(res.body.data.warnings.map((w: { key: string }) => w.key)).toEqual([
      'errors.qc.acm_not_priceable',
      'errors.qc.unknown_acm_code',
      'errors.qc.prices_belong_to_parent',
    ]);
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('writes no restrictions', async () => {
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    const res = await post('inventory/restrictions', [
      {
        room_type_id: f.shadowRoom.external_id,
        rate_plan_id: f.shadowPlan.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        stop_sell: true,
      },
    ]);
    expect(res.body.data).toEqual({
      ...DRY,
      would: { written: 2, unchanged: 0, skipped_out_of_window: 0 },
      warnings: [],
    });
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('refuses an invalid batch with the same 422 as a live property', async () => {
    const res = await post('inventory/restrictions', [
      {
        room_type_id: f.rooms.double.external_id,
        rate_plan_id: f.plans.room.external_id,
        date_from: '2026-07-01',
        date_to: '2026-07-02',
        stop_sell: true,
      },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.multi_property_batch_not_allowed');
  });

  it('runs the per-plan rate write dry, with its row errors', async () => {
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    const res = await post(`rate_plans/${person.external_id}/rates`, [
      { date: '2026-07-01', prices: { A1: 10 } },
      { date: '2026-07-02', prices: { NOPE: 10 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 0, ...DRY });
    expect(res.body.data.errors.map((e: { row: number; code: string }) => [e.row, e.code])).toEqual([
      [1, 'unknown_acm_code'],
    ]);
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('changes nothing for any batch (fast-check)', async () => {
    const rooms = [f.shadowRoom.external_id, f.shadowRoom.partner_code, 'UNKNOWN-ROOM'];
    const plans = [f.shadowPlan.external_id, person.external_id, child.external_id];
    const day = fc.integer({ min: 1, max: 28 }).map((d) => `2026-07-${String(d).padStart(2, '0')}`);
    const range = fc
      .tuple(day, day)
      .map(([a, b]) => (a <= b ? { date_from: a, date_to: b } : { date_from: b, date_to: a }));
    const restriction = fc.record(
      { min_los: fc.integer({ min: 1, max: 5 }), stop_sell: fc.boolean(), closed_to_arrival: fc.boolean() },
      { requiredKeys: [] },
    );
    const availability = fc
      .record({ room_type_id: fc.constantFrom(...rooms), range, availability: fc.integer({ min: 0, max: 9 }) })
      .map(({ range, ...row }) => ({ ...row, ...range }));
    const price = fc
      .record({
        room_type_id: fc.constantFrom(...rooms),
        rate_plan_id: fc.constantFrom(...plans),
        range,
        prices: fc.dictionary(fc.constantFrom('ROOM', 'A1', 'A2', 'AEB', 'ZZ'), fc.integer({ min: 0, max: 500 }), {
          minKeys: 1,
          maxKeys: 3,
        }),
        restriction,
      })
      .map(({ range, restriction, ...row }) => ({ ...row, ...range, ...restriction }));
    const restrictionRow = fc
      .record({ room_type_id: fc.constantFrom(...rooms), rate_plan_id: fc.constantFrom(...plans), range, restriction })
      .map(({ range, restriction, ...row }) => ({ ...row, ...range, ...restriction }));
    const push = fc.oneof(
      fc.record({
        path: fc.constant('inventory/availability'),
        values: fc.array(availability, { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ path: fc.constant('inventory/rates'), values: fc.array(price, { minLength: 1, maxLength: 4 }) }),
      fc.record({
        path: fc.constant('inventory/restrictions'),
        values: fc.array(restrictionRow, { minLength: 1, maxLength: 4 }),
      }),
    );
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    await fc.assert(
      fc.asyncProperty(push, async ({ path, values }) => {
        const res = await post(path, values);
        expect([202, 422]).toContain(res.status);
        if (res.status === 202) expect(res.body.data).toMatchObject(DRY);
        expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
      }),
      { numRuns: 40 },
    );
  });
});
