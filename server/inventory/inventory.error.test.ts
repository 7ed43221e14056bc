import { describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { addRoomType, calendarSnapshot, type InventoryFixture, inventoryTest } from './test-fixtures.ts';

const { t, f } = inventoryTest();

type Endpoint = 'availability' | 'rates' | 'restrictions';
const push = (endpoint: Endpoint, values: unknown[], token = f.token) =>
  t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/${endpoint}`, { token, body: { values } });
const days = { date_from: '2026-07-01', date_to: '2026-07-02' };
const pair = (plan: keyof InventoryFixture['plans'] = 'room', room: 'double' | 'suite' = 'double') => ({
  room_type_id: f.rooms[room].external_id,
  rate_plan_id: f.plans[plan].external_id,
});

/** A refused batch answers the key with the rows it names, and writes nothing at all. */
async function expectRefused(endpoint: Endpoint, values: unknown[], key: string, rows?: unknown[]) {
  const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
  const res = await push(endpoint, values);
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(key);
  if (rows) expect(res.body.rows).toEqual(rows);
  expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  return res;
}

describe('whole-batch refusals (422)', () => {
  it('refuses more than 1000 rows with errors.qc.batch_too_large', async () => {
    const row = {
      room_type_id: f.rooms.double.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-01',
      availability: 1,
    };
    const res = await expectRefused(
      'availability',
      Array.from({ length: 1001 }, () => row),
      'errors.qc.batch_too_large',
    );
    expect(res.body).toMatchObject({ limit: 'rows', max: 1000, actual: 1001 });
  });

  it('refuses ranges expanding to more than 20000 day-rows with errors.qc.batch_too_large', async () => {
    // 20 rows of 1000 days and one more day: 20001 day-rows, although the window would trim most of them.
    const row = { ...pair(), date_from: '2026-07-01', date_to: '2029-03-26', min_los: 1 };
    const oneDay = { ...row, date_to: '2026-07-01' };
    const res = await expectRefused(
      'restrictions',
      [...Array.from({ length: 20 }, () => row), oneDay],
      'errors.qc.batch_too_large',
    );
    expect(res.body).toMatchObject({ limit: 'day_rows', max: 20000, actual: 20001 });
    // Exactly 20000 is fine.
    const ok = await push(
      'restrictions',
      Array.from({ length: 20 }, () => row),
    );
    expect(ok.status).toBe(202);
  });

  it('refuses a rate row with both rate and prices, or neither, with errors.qc.rate_or_prices_required', async () => {
    await expectRefused(
      'rates',
      [
        { ...pair(), ...days, rate: 1 },
        { ...pair(), ...days, rate: 1, prices: { ROOM: 1 } },
      ],
      'errors.qc.rate_or_prices_required',
      [{ row: 1, ...pair() }],
    );
    await expectRefused('rates', [{ ...pair(), ...days, min_los: 2 }], 'errors.qc.rate_or_prices_required', [
      { row: 0, ...pair() },
    ]);
    await expectRefused('rates', [{ ...pair(), ...days, prices: {} }], 'errors.qc.rate_or_prices_required');
  });

  it('refuses a restriction row without any restriction field with errors.qc.restriction_payload_empty', async () => {
    await expectRefused(
      'restrictions',
      [
        { ...pair(), ...days, stop_sell: true },
        { ...pair(), ...days },
      ],
      'errors.qc.restriction_payload_empty',
      [{ row: 1, ...pair() }],
    );
  });

  it('names the misspelled fields of a restriction row refused as empty', async () => {
    const res = await expectRefused(
      'restrictions',
      [
        { ...pair(), ...days, stop_sell: true, stop_sel: true },
        { ...pair(), ...days, min_stya: 2 },
      ],
      'errors.qc.restriction_payload_empty',
      [{ row: 1, ...pair() }],
    );
    expect(res.body.unknown_fields).toEqual(['values.1.min_stya']);
    expect(res.body.detail).toContain('values.1.min_stya');
  });

  it('names the misspelled fields of a price row refused for neither rate nor prices', async () => {
    const res = await expectRefused(
      'rates',
      [
        { ...pair(), ...days, rate: 1, colour: 'red' },
        { ...pair(), ...days, price: 1 },
        { ...pair(), ...days, rates: 1, min_los: 2 },
      ],
      'errors.qc.rate_or_prices_required',
      [
        { row: 1, ...pair() },
        { row: 2, ...pair() },
      ],
    );
    expect(res.body.unknown_fields).toEqual(['values.1.price', 'values.2.rates']);
    expect(res.body.detail).toContain('values.1.price, values.2.rates');
  });

  it('refuses an unknown room type with errors.qc.unknown_room_type on every endpoint', async () => {
    const unknown = '11111111-2222-4333-8444-555555555555';
    await expectRefused(
      'availability',
      [{ room_type_id: unknown, ...days, availability: 1 }],
      'errors.qc.unknown_room_type',
      [{ row: 0, room_type_id: unknown }],
    );
    await expectRefused(
      'rates',
      [{ ...pair(), room_type_id: 'NO-SUCH-CODE', ...days, rate: 1 }],
      'errors.qc.unknown_room_type',
    );
    await expectRefused(
      'restrictions',
      [{ ...pair(), room_type_id: unknown, ...days, stop_sell: true }],
      'errors.qc.unknown_room_type',
    );
  });

  it('refuses a pair that does not exist with errors.qc.unknown_room_or_rate', async () => {
    // The per_person plan sells only the double room.
    await expectRefused(
      'rates',
      [{ ...pair('person', 'suite'), ...days, prices: { A1: 1 } }],
      'errors.qc.unknown_room_or_rate',
      [{ row: 0, ...pair('person', 'suite') }],
    );
    const unknownPlan = { room_type_id: f.rooms.double.external_id, rate_plan_id: 'NO-SUCH-PLAN' };
    await expectRefused(
      'restrictions',
      [{ ...unknownPlan, ...days, stop_sell: true }],
      'errors.qc.unknown_room_or_rate',
      [{ row: 0, ...unknownPlan }],
    );
  });

  it('refuses rows naming another property of the caller with errors.qc.multi_property_batch_not_allowed', async () => {
    const shadowRoom = f.shadowRoom.external_id;
    await expectRefused(
      'availability',
      [
        { room_type_id: f.rooms.double.external_id, ...days, availability: 1 },
        { room_type_id: shadowRoom, ...days, availability: 1 },
      ],
      'errors.qc.multi_property_batch_not_allowed',
      [{ row: 1, room_type_id: shadowRoom }],
    );
    // By partner code too, and for a rate plan of the other property on a room of this one.
    await expectRefused(
      'rates',
      [{ room_type_id: f.shadowRoom.partner_code, rate_plan_id: f.shadowPlan.partner_code, ...days, rate: 1 }],
      'errors.qc.multi_property_batch_not_allowed',
    );
    await expectRefused(
      'restrictions',
      [{ room_type_id: f.rooms.double.external_id, rate_plan_id: f.shadowPlan.external_id, ...days, stop_sell: true }],
      'errors.qc.multi_property_batch_not_allowed',
    );
  });

  it('reads a room type of a property outside the caller allow-list as unknown, not as another property', async () => {
    const { token } = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['inventory.write'],
      property_ids: [f.live.external_id],
    });
    const res = await push(
      'availability',
      [{ room_type_id: f.shadowRoom.external_id, ...days, availability: 1 }],
      token,
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.unknown_room_type');
  });

  it('refuses per-code prices on a per_room pair with errors.qc.occupancy_pricing_not_supported', async () => {
    await expectRefused(
      'rates',
      [{ ...pair(), ...days, prices: { ROOM: 100, A1: 80 } }],
      'errors.qc.occupancy_pricing_not_supported',
      [{ row: 0, ...pair() }],
    );
  });

  it('refuses impossible dates and reversed ranges with 422 validation errors naming the field', async () => {
    const res = await expectRefused(
      'availability',
      [
        { room_type_id: f.rooms.double.external_id, date_from: '2026-02-30', date_to: '2026-03-01', availability: 1 },
        { room_type_id: f.rooms.double.external_id, date_from: '2026-07-02', date_to: '2026-07-01', availability: 1 },
      ],
      'errors.validation_error',
    );
    expect(res.body.errors).toEqual({
      'values.0.date_from': ['customer.availability.messages.format'],
      'values.1.date_to': ['customer.availability.messages.before_date_from'],
    });
  });

  it('refuses malformed rows with 422 validation errors before touching the calendar', async () => {
    const res = await expectRefused(
      'availability',
      [{ room_type_id: f.rooms.double.external_id, date_from: '2026-07-01', date_to: '2026-07-01', availability: -1 }],
      'errors.validation_error',
    );
    expect(res.body.errors['values.0.availability']).toEqual(['customer.availability.messages.min']);
    const rates = await expectRefused(
      'rates',
      [{ ...pair(), date_from: '01/07/2026', date_to: '2026-07-01', rate: 'ten' }],
      'errors.validation_error',
    );
    expect(Object.keys(rates.body.errors).sort()).toEqual(['values.0.date_from', 'values.0.rate']);
    const minMax = await expectRefused(
      'restrictions',
      [{ ...pair(), ...days, min_los: 5, max_los: 2 }],
      'errors.validation_error',
    );
    expect(minMax.body.errors).toEqual({ 'values.0.max_los': ['customer.restriction.messages.below_min_los'] });
    expect((await push('availability', [])).body.errors).toEqual({
      values: ['customer.availability.messages.min_items'],
    });
    // The alternate row of the spec's idempotency examples is not an availability row here.
    const alternate = await push('availability', [{ room_id: 1, date: '2026-07-01', qty: 2, is_stop_sale: false }]);
    expect(alternate.status).toBe(422);
    expect(Object.keys(alternate.body.errors).sort()).toEqual([
      'values.0.availability',
      'values.0.date_from',
      'values.0.date_to',
      'values.0.room_type_id',
    ]);
    const noValues = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/rates`, {
      token: f.token,
      body: { rows: [] },
    });
    expect(noValues.status).toBe(422);
  });

  it('fails the whole push with 500 when the bulk write fails, leaving nothing written and no event', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    // Fault injection: the database refuses availability writes for this one room type.
    await t.deps.db.query(`create function fail_availability_${room.id}() returns trigger language plpgsql as $$
      begin raise exception 'disk quota exceeded'; end $$`);
    await t.deps.db.query(`create trigger fail_availability_${room.id} before insert or update on availability
      for each row when (new.room_type_id = ${room.id}) execute function fail_availability_${room.id}()`);
    try {
      const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
      const res = await push('availability', [
        { room_type_id: f.rooms.double.external_id, ...days, availability: 1 },
        { room_type_id: room.external_id, ...days, availability: 1 },
      ]);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(errorEnvelope('errors.internal_error'));
      expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
      expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
    } finally {
      await t.deps.db.query(`drop trigger fail_availability_${room.id} on availability`);
      await t.deps.db.query(`drop function fail_availability_${room.id}()`);
    }
  });

  it('answers 404 for a property outside the allow-list before looking at the rows', async () => {
    const { token } = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['inventory.write'],
      property_ids: [f.shadow.external_id],
    });
    const res = await push(
      'availability',
      [{ room_type_id: f.rooms.double.external_id, ...days, availability: 1 }],
      token,
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('errors.not_found');
  });
});

describe('row warnings (202): the rest of the batch is written', () => {
  const warningsOf = async (values: unknown[]) => {
    const res = await push('rates', values);
    expect(res.status).toBe(202);
    return res.body.data;
  };

  it('warns errors.qc.unknown_acm_code for a code outside the vocabulary, with the codes allowed', async () => {
    const data = await warningsOf([{ ...pair('person'), ...days, prices: { A1: 50, ZZZ: 1 } }]);
    expect(data.written).toBe(2);
    expect(data.warnings).toEqual([
      { row: 0, key: 'errors.qc.unknown_acm_code', ...pair('person'), code: 'ZZZ', allowed_codes: ['A1', 'A2'] },
    ]);
    const [row] = await t.deps.db.sql<{
      prices: unknown;
    }>`select prices from rates where rate_plan_id = ${f.plans.person.id}
      and room_type_id = ${f.rooms.double.id} and date = '2026-07-01'`;
    expect(row?.prices).toEqual({ A1: 50 });
  });

  it('warns errors.qc.acm_not_priceable for derived, fee, cost_free and inactive codes', async () => {
    const data = await warningsOf([{ ...pair('person'), ...days, prices: { AEB: 1, CEB: 2, CNB: 3, INB: 4, A2: 70 } }]);
    expect(data.written).toBe(2);
    expect(data.warnings.map((w: { code: string; kind: string }) => [w.code, w.kind])).toEqual([
      ['AEB', 'derived'],
      ['CEB', 'fee'],
      ['CNB', 'cost_free'],
      ['INB', 'inactive'],
    ]);
    expect(new Set(data.warnings.map((w: { key: string }) => w.key))).toEqual(new Set(['errors.qc.acm_not_priceable']));
  });

  it('warns errors.qc.prices_belong_to_parent for prices to a child plan, naming the parent, and still applies its restrictions', async () => {
    const data = await warningsOf([{ ...pair('child'), ...days, rate: 90, stop_sell: true }]);
    expect(data.warnings).toEqual([
      {
        row: 0,
        key: 'errors.qc.prices_belong_to_parent',
        ...pair('child'),
        parent_rate_plan_id: f.plans.room.external_id,
      },
    ]);
    expect(data).toMatchObject({ written: 2, unchanged: 0 });
    const prices = await t.deps.db.sql`select 1 from rates where rate_plan_id = ${f.plans.child.id}`;
    expect(prices).toEqual([]);
    const restrictions = await t.deps.db.sql<{ stop_sell: boolean }>`select stop_sell from restrictions
      where rate_plan_id = ${f.plans.child.id} and room_type_id = ${f.rooms.double.id} and date between '2026-07-01' and '2026-07-02'`;
    expect(restrictions).toEqual([{ stop_sell: true }, { stop_sell: true }]);
  });

  it('warns errors.qc.price_on_derived_rate for prices to a child plan whose parent does not sell the room', async () => {
    const data = await warningsOf([{ ...pair('orphan', 'suite'), ...days, prices: { A1: 10 } }]);
    expect(data.warnings).toEqual([
      {
        row: 0,
        key: 'errors.qc.price_on_derived_rate',
        ...pair('orphan', 'suite'),
        parent_rate_plan_id: f.plans.person.external_id,
      },
    ]);
    expect(data.written).toBe(0);
  });

  it('warns errors.qc.prices_map_required for a scalar rate on a pair that is not per_room', async () => {
    const data = await warningsOf([
      { ...pair('occupancy'), ...days, rate: 100 },
      { ...pair('occupancy'), ...days, prices: { Apn1: 20 } },
    ]);
    expect(data.warnings).toEqual([{ row: 0, key: 'errors.qc.prices_map_required', ...pair('occupancy') }]);
    expect(data.written).toBe(2);
  });

  it('counts rows with warnings as failed in the push event', async () => {
    await warningsOf([
      { ...pair('person'), ...days, prices: { A1: 51, ZZZ: 1, YYY: 2 } },
      { ...pair('person'), ...days, prices: { A2: 71 } },
      { ...pair('child'), ...days, rate: 1 },
    ]);
    const [event] = await t.deps.db.sql<{ data: Record<string, unknown> }>`
      select data from outbox_events where customer_id = ${f.demo.customer_id} and type = 'inventory.push.completed'
      order by id desc limit 1`;
    expect(event?.data).toMatchObject({ endpoint: 'qc.inventory.rates', success: 1, failed: 2, written: 2 });
  });
});
