import { beforeAll, describe, expect, it } from 'bun:test';
import { inventoryTest } from '../inventory/test-fixtures.ts';

// The child plan sells at -10%, and at -20% on 2026-07-02.
const { t, f } = inventoryTest('2026-07-02', '2026-07-02');
beforeAll(async () => {
  const push = async (endpoint: string, values: unknown[]) => {
    const res = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/${endpoint}`, {
      token: f.token,
      body: { values },
    });
    if (res.status !== 202) throw new Error(res.text);
  };
  const double = f.rooms.double.external_id;
  const suite = f.rooms.suite.external_id;
  await push('rates', [
    {
      room_type_id: double,
      rate_plan_id: f.plans.person.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-03',
      prices: { A1: 99.99, A2: 150 },
    },
    {
      room_type_id: double,
      rate_plan_id: f.plans.person.external_id,
      date_from: '2026-07-04',
      date_to: '2026-07-04',
      prices: { A1: 99.99, A2: 160 },
    },
    {
      room_type_id: double,
      rate_plan_id: f.plans.room.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-03',
      rate: 200,
    },
    {
      room_type_id: suite,
      rate_plan_id: f.plans.room.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-01',
      rate: 333.33,
    },
    {
      room_type_id: double,
      rate_plan_id: f.plans.occupancy.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-01',
      prices: { A1: 90, Apn1: 30 },
    },
  ]);
  await push('restrictions', [
    {
      room_type_id: double,
      rate_plan_id: f.plans.child.external_id,
      date_from: '2026-07-02',
      date_to: '2026-07-02',
      min_los: 2,
      stop_sell: true,
    },
    {
      room_type_id: double,
      rate_plan_id: f.plans.room.external_id,
      date_from: '2026-07-01',
      date_to: '2026-07-01',
      closed_to_arrival: true,
    },
  ]);
});

const read = (plan: string, from: string, to: string, extra: Record<string, string> = {}) =>
  t.request('GET', `/v1/qc/properties/${f.live.external_id}/rate_plans/${plan}/rates`, {
    token: f.token,
    query: { from, to, ...extra },
  });

describe('GET /rate_plans/{id}/rates', () => {
  it('resolves manual, derived (also from a derived code), fee and cost_free codes per day; inactive ones are absent', async () => {
    const res = await read(f.plans.person.external_id, '2026-07-01', '2026-07-05');
    expect(res.status).toBe(200);
    const [double] = res.body.data.rooms;
    expect(double.room_type_id).toBe(f.rooms.double.external_id);
    const base = { CEB: 12.5, CNB: 0 };
    expect(double.values[0]).toEqual({
      date: '2026-07-01',
      // AEB = A2 + 15; CRB = A1 - 50% (49.995 rounds half up); TRB = CRB + 10%; TEB = A1 - 500, never below 0.
      prices: { A1: 99.99, A2: 150, AEB: 165, CRB: 50, TRB: 55, TEB: 0, ...base },
      restrictions: {},
    });
    expect(double.values[3].prices).toEqual({ A1: 99.99, A2: 160, AEB: 175, CRB: 50, TRB: 55, TEB: 0, ...base });
    // Nothing stored on the 5th: only the codes that need no stored value.
    expect(double.values[4]).toEqual({ date: '2026-07-05', prices: base, restrictions: {} });
    expect(res.body.data).toMatchObject({
      rate_plan_id: f.plans.person.external_id,
      parent_rate_plan_id: null,
      sell_type: 'per_person',
      from: '2026-07-01',
      to: '2026-07-05',
      consolidated: false,
    });
  });

  it('merges equal consecutive days into periods with consolidated=1', async () => {
    const res = await read(f.plans.person.partner_code, '2026-07-01', '2026-07-05', { consolidated: '1' });
    expect(res.status).toBe(200);
    const full = (a2: number) => ({ A1: 99.99, A2: a2, AEB: a2 + 15, CRB: 50, TRB: 55, TEB: 0, CEB: 12.5, CNB: 0 });
    expect(res.body.data.consolidated).toBe(true);
    expect(res.body.data.rooms).toEqual([
      {
        room_type_id: f.rooms.double.external_id,
        periods: [
          { from: '2026-07-01', to: '2026-07-03', prices: full(150) },
          { from: '2026-07-04', to: '2026-07-04', prices: full(160) },
          { from: '2026-07-05', to: '2026-07-05', prices: { CEB: 12.5, CNB: 0 } },
        ],
      },
    ]);
  });

  it('leaves days without any price out of the periods', async () => {
    const res = await read(f.plans.room.external_id, '2026-06-30', '2026-07-05', { consolidated: '1' });
    expect(res.body.data.rooms).toEqual([
      {
        room_type_id: f.rooms.double.external_id,
        periods: [{ from: '2026-07-01', to: '2026-07-03', prices: { ROOM: 200 } }],
      },
      {
        room_type_id: f.rooms.suite.external_id,
        periods: [{ from: '2026-07-01', to: '2026-07-01', prices: { ROOM: 333.33 } }],
      },
    ]);
  });

  it('computes a child plan from its parent with the period percentage, and shows the child its own restrictions', async () => {
    const res = await read(f.plans.child.external_id, '2026-07-01', '2026-07-03');
    expect(res.body.data).toMatchObject({ parent_rate_plan_id: f.plans.room.external_id, sell_type: 'per_room' });
    const [double, suite] = res.body.data.rooms;
    expect(double.values).toEqual([
      { date: '2026-07-01', prices: { ROOM: 180 }, restrictions: {} },
      { date: '2026-07-02', prices: { ROOM: 160 }, restrictions: { min_los: 2, stop_sell: true } },
      { date: '2026-07-03', prices: { ROOM: 180 }, restrictions: {} },
    ]);
    // 333.33 * 0.9 = 299.997, rounded to cents.
    expect(suite.values[0].prices).toEqual({ ROOM: 300 });
    const parent = await read(f.plans.room.external_id, '2026-07-01', '2026-07-01');
    expect(parent.body.data.rooms[0].values[0]).toEqual({
      date: '2026-07-01',
      prices: { ROOM: 200 },
      restrictions: { closed_to_arrival: true },
    });
  });

  it('prices a day in two overlapping derivation periods by the first listed, as the API document says', async () => {
    const child = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/rate_plans`, {
      token: f.token,
      body: {
        title: 'Overlapping periods',
        parent_rate_plan_id: f.plans.room.external_id,
        room_type_ids: [f.rooms.double.external_id],
        derivation: {
          percent: 0,
          periods: [
            { from: '2026-07-02', to: '2026-07-03', percent: -50 },
            { from: '2026-07-01', to: '2026-07-02', percent: 20 },
          ],
        },
      },
    });
    expect(child.status).toBe(201);
    const res = await read(child.body.data.id, '2026-07-01', '2026-07-03');
    expect(res.body.data.rooms[0].values.map((v: { prices: unknown }) => v.prices)).toEqual([
      { ROOM: 240 },
      { ROOM: 100 },
      { ROOM: 100 },
    ]);
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const body = doc.paths['/v1/qc/properties/{property}/rate_plans'].post.requestBody.content['application/json'];
    expect(body.schema.properties.derivation.properties.periods.description).toContain(
      'a day takes the first listed period that holds it',
    );
  });

  it('moves derived codes and child plans when the parent price changes', async () => {
    await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/rates`, {
      token: f.token,
      body: {
        values: [
          {
            room_type_id: f.rooms.double.external_id,
            rate_plan_id: f.plans.room.external_id,
            date_from: '2026-07-10',
            date_to: '2026-07-10',
            rate: 100,
          },
        ],
      },
    });
    const child = await read(f.plans.child.external_id, '2026-07-10', '2026-07-10');
    expect(child.body.data.rooms[0].values[0].prices).toEqual({ ROOM: 90 });
  });

  it('resolves per_occupancy position codes', async () => {
    const res = await read(f.plans.occupancy.external_id, '2026-07-01', '2026-07-01');
    expect(res.body.data.rooms[0].values[0].prices).toEqual({ A1: 90, Apn1: 30, Cpn1: 25 });
  });

  it('shows a child whose parent does not sell the room without prices', async () => {
    const res = await read(f.plans.orphan.external_id, '2026-07-01', '2026-07-01');
    expect(res.body.data.rooms).toEqual([
      { room_type_id: f.rooms.suite.external_id, values: [{ date: '2026-07-01', prices: {}, restrictions: {} }] },
    ]);
  });

  it('answers 404 for an unknown plan or one of another property, 422 for a bad range', async () => {
    expect((await read('NO-SUCH-PLAN', '2026-07-01', '2026-07-01')).status).toBe(404);
    expect((await read(f.shadowPlan.external_id, '2026-07-01', '2026-07-01')).status).toBe(404);
    const bad = await read(f.plans.room.external_id, '2026-07-05', '2026-07-01');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ to: ['customer.rate.messages.before_from'] });
  });
});
