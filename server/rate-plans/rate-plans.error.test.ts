import { beforeAll, describe, expect, it } from 'bun:test';
import type { DemoProperty } from '../demo/demo.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

let token: string;
let base: string;

const live = () => demo.properties[0] as DemoProperty;
const shadow = () => demo.properties[1] as DemoProperty;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  token = demo.personal_token;
  base = `/v1/qc/properties/${live().id}`;
});

const create = (body: Record<string, unknown>) =>
  t.request('POST', `${base}/rate_plans`, { token, body: { title: 'T', ...body } });
const expectKey = (res: { status: number; body: any }, status: number, key: string) => {
  expect(res.status).toBe(status);
  expect(res.body.message).toBe(key);
};

describe('POST rate_plans refusals', () => {
  it('refuses a derivation without parent', async () => {
    expectKey(
      await create({ room_type_ids: ['DBL'], sell_type: 'per_room', derivation: { percent: -10 } }),
      422,
      'errors.qc.derivation_requires_parent',
    );
  });

  it('refuses a parent that resolves to no plan, by external id or by code', async () => {
    expectKey(
      await create({ parent_rate_plan_id: '00000000-0000-4000-8000-000000000000' }),
      422,
      'errors.qc.parent_rate_plan_not_found',
    );
    expectKey(
      await create({ parent_rate_plan_id: 'NOPE', derivation: { percent: 5 } }),
      422,
      'errors.qc.parent_rate_plan_not_found',
    );
  });

  it('refuses a parent that sits on another property', async () => {
    const other = shadow().rate_plans[0]?.id;
    expectKey(
      await create({ parent_rate_plan_id: other, derivation: { percent: -5 } }),
      422,
      'errors.qc.parent_rate_plan_not_on_property',
    );
  });

  it("does not reveal another customer's plan: it is simply not found", async () => {
    const stranger = await t.demo();
    const foreign = (stranger.properties[0] as DemoProperty).rate_plans[0]?.id;
    expectKey(await create({ parent_rate_plan_id: foreign }), 422, 'errors.qc.parent_rate_plan_not_found');
  });

  it('refuses explicit occupancies with more or fewer than one room type', async () => {
    const occupancies = [{ code: 'A1' }];
    expectKey(
      await create({ room_type_ids: ['DBL', 'APT'], sell_type: 'per_person', occupancies }),
      422,
      'errors.qc.occupancies_require_single_room',
    );
    expectKey(
      await create({ room_type_ids: [], sell_type: 'per_person', occupancies }),
      422,
      'errors.qc.occupancies_require_single_room',
    );
  });

  it('refuses a room type not on the property, by id or code', async () => {
    expectKey(
      await create({ room_type_ids: ['DBL', 'NOPE'], sell_type: 'per_room' }),
      422,
      'errors.qc.unknown_room_type',
    );
    expectKey(
      await create({ room_type_ids: [shadow().room_types[0]?.id], sell_type: 'per_room' }),
      422,
      'errors.qc.unknown_room_type',
    );
  });

  it('refuses a partner code already used by a plan of the property', async () => {
    expectKey(
      await create({ room_type_ids: ['DBL'], sell_type: 'per_room', partner_code: 'BAR' }),
      409,
      'errors.qc.partner_code_taken',
    );
  });

  it('reports field problems under errors.validation_error', async () => {
    const res = await create({ room_type_ids: ['DBL'] });
    expectKey(res, 422, 'errors.validation_error');
    expect(res.body.errors).toEqual({ sell_type: ['customer.rate_plan.messages.required'] });

    const noRooms = await create({ sell_type: 'per_room' });
    expect(noRooms.body.errors).toEqual({ room_type_ids: ['customer.rate_plan.messages.required'] });
    const emptyRooms = await create({ sell_type: 'per_room', room_type_ids: [] });
    expect(emptyRooms.body.errors).toEqual({ room_type_ids: ['customer.rate_plan.messages.min_items'] });
    expect(emptyRooms.body.detail).toBe('room_type_ids: has too few items.');

    const badSell = await create({ room_type_ids: ['DBL'], sell_type: 'per_bed' });
    expect(badSell.body.errors).toEqual({ sell_type: ['customer.rate_plan.messages.in'] });

    const badAdjust = await create({
      room_type_ids: ['DBL'],
      sell_type: 'per_person',
      occupancies: [{ code: 'A1', pricing: { derived_from: 'A2', adjust: 'ten' } }],
    });
    expect(badAdjust.body.errors).toEqual({ 'occupancies.0.pricing.adjust': ['customer.rate_plan.messages.format'] });
  });

  it('refuses malformed derivations of a child', async () => {
    const both = await create({ parent_rate_plan_id: 'BAR', derivation: { percent: -10, adjust: '-10%' } });
    expect(both.body.errors).toEqual({ 'derivation.percent': ['customer.rate_plan.messages.percent_or_adjust'] });
    const inverted = await create({
      parent_rate_plan_id: 'BAR',
      derivation: { percent: -10, periods: [{ from: '2026-09-01', to: '2026-08-01', percent: 1 }] },
    });
    expect(inverted.body.errors).toEqual({ 'derivation.periods.0.to': ['customer.rate_plan.messages.before_from'] });
    const flat = await create({ parent_rate_plan_id: 'BAR', derivation: { adjust: '-10' } });
    expect(flat.body.errors).toEqual({ 'derivation.adjust': ['customer.rate_plan.messages.format'] });
    const tooLow = await create({ parent_rate_plan_id: 'BAR', derivation: { percent: -100 } });
    expect(tooLow.body.errors).toEqual({ 'derivation.percent': ['customer.rate_plan.messages.min'] });
  });

  it("refuses an impossible day in a derivation period with rule format, with the period's other errors", async () => {
    const plans = () => t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from rate_plans rp join properties p on p.id = rp.property_id
      where p.external_id = ${live().id}`;
    const before = await plans();
    const impossible = await create({
      title: 'c',
      sell_type: 'per_room',
      meal_plan: 'none',
      parent_rate_plan_id: 'BAR',
      derivation: { percent: 5, periods: [{ from: '2027-02-30', to: '2027-03-01', percent: -20 }] },
    });
    expect([impossible.status, impossible.body.errors]).toEqual([
      422,
      { 'derivation.periods.0.from': ['customer.rate_plan.messages.format'] },
    ]);
    const both = await create({
      parent_rate_plan_id: 'BAR',
      derivation: {
        percent: 5,
        periods: [
          { from: '2027-03-01', to: '2027-03-31', percent: 1 },
          { from: '2027-04-31', to: '2027-13-01', percent: 1, adjust: '+1%' },
        ],
      },
    });
    expect(both.body.errors).toEqual({
      'derivation.periods.1.from': ['customer.rate_plan.messages.format'],
      'derivation.periods.1.to': ['customer.rate_plan.messages.format'],
      'derivation.periods.1.percent': ['customer.rate_plan.messages.percent_or_adjust'],
    });
    expect(await plans()).toEqual(before);
  });

  it('refuses a child of a child, a child on a room its parent lacks, another sell type and explicit occupancies', async () => {
    const grandchild = await create({ parent_rate_plan_id: 'NRF' });
    expect(grandchild.body.errors).toEqual({ parent_rate_plan_id: ['customer.rate_plan.messages.parent_is_child'] });
    const lonely = await t.request('POST', `${base}/room_types`, {
      token,
      body: { name: 'Lonely', partner_code: 'LONE' },
    });
    expect(lonely.status).toBe(201);
    const offParent = await create({ parent_rate_plan_id: 'BAR', room_type_ids: ['DBL', 'LONE'] });
    expect(offParent.body.errors).toEqual({ 'room_type_ids.1': ['customer.rate_plan.messages.not_on_parent'] });
    const otherSell = await create({ parent_rate_plan_id: 'BAR', room_type_ids: ['DBL'], sell_type: 'per_person' });
    expect(otherSell.body.errors).toEqual({ sell_type: ['customer.rate_plan.messages.differs_from_parent'] });
    const explicit = await create({
      parent_rate_plan_id: 'BAR',
      room_type_ids: ['DBL'],
      occupancies: [{ code: 'ROOM' }],
    });
    expect(explicit.body.errors).toEqual({ occupancies: ['customer.rate_plan.messages.not_allowed_on_child'] });
  });

  it('refuses a policy id that is not a policy of this property', async () => {
    const res = await create({
      room_type_ids: ['DBL'],
      sell_type: 'per_room',
      payment_policy_id: '00000000-0000-4000-8000-000000000000',
      cancellation_policy_id: 'nope',
    });
    expectKey(res, 422, 'errors.validation_error');
    expect(res.body.errors).toEqual({ payment_policy_id: ['customer.rate_plan.messages.not_found'] });
    const [foreign] = await t.deps.db.sql<{ external_id: string }>`
      select cp.external_id from cancellation_policies cp join properties p on p.id = cp.property_id where p.external_id = ${shadow().id}`;
    const other = await create({
      room_type_ids: ['DBL'],
      sell_type: 'per_room',
      cancellation_policy_id: foreign?.external_id,
    });
    expect(other.body.errors).toEqual({ cancellation_policy_id: ['customer.rate_plan.messages.not_found'] });
  });

  it('writes nothing when a creation is refused', async () => {
    const before = await t.request('GET', `${base}/rate_plans`, { token });
    await create({ room_type_ids: ['DBL'], sell_type: 'per_room', partner_code: 'BAR' });
    await create({ room_type_ids: ['DBL', 'NOPE'], sell_type: 'per_room' });
    const after = await t.request('GET', `${base}/rate_plans`, { token });
    expect(after.body.data.meta.total).toBe(before.body.data.meta.total);
  });
});

describe('PATCH and PUT pricing-model refusals', () => {
  it('answers 404 for a plan that is not on the property', async () => {
    const other = shadow().rate_plans[0]?.id;
    expectKey(await t.request('GET', `${base}/rate_plans/${other}`, { token }), 404, 'errors.not_found');
    expectKey(
      await t.request('PATCH', `${base}/rate_plans/NOPE`, { token, body: { sell_type: 'per_room' } }),
      404,
      'errors.not_found',
    );
    expectKey(
      await t.request('PUT', `${base}/rate_plans/${other}/pricing-model`, { token, body: { sell_type: 'per_room' } }),
      404,
      'errors.not_found',
    );
  });

  it('refuses a sell type change on a child plan', async () => {
    const res = await t.request('PATCH', `${base}/rate_plans/NRF`, { token, body: { sell_type: 'per_person' } });
    expectKey(res, 422, 'errors.validation_error');
    expect(res.body.errors).toEqual({ sell_type: ['customer.rate_plan.messages.follows_parent'] });
  });

  it('refuses on PATCH a policy id that is not a live policy of this property, and changes nothing', async () => {
    const before = (await t.request('GET', `${base}/rate_plans/BAR`, { token })).body.data;
    const [foreign] = await t.deps.db.sql<{ external_id: string }>`
      select cp.external_id from cancellation_policies cp join properties p on p.id = cp.property_id where p.external_id = ${shadow().id}`;
    const res = await t.request('PATCH', `${base}/rate_plans/BAR`, {
      token,
      body: { title: 'Renamed', payment_policy_id: 'nope', cancellation_policy_id: foreign?.external_id },
    });
    expectKey(res, 422, 'errors.validation_error');
    expect(res.body.errors).toEqual({ payment_policy_id: ['customer.rate_plan.messages.not_found'] });
    const nulled = await t.request('PATCH', `${base}/rate_plans/BAR`, { token, body: { payment_policy_id: null } });
    expect(nulled.body.errors).toEqual({ payment_policy_id: ['customer.rate_plan.messages.string'] });
    const other = await t.request('PATCH', `${base}/rate_plans/BAR`, {
      token,
      body: { cancellation_policy_id: foreign?.external_id },
    });
    expect(other.body.errors).toEqual({ cancellation_policy_id: ['customer.rate_plan.messages.not_found'] });
    expect((await t.request('GET', `${base}/rate_plans/BAR`, { token })).body.data).toEqual(before);
  });

  it('refuses a partner code taken by another plan on PATCH', async () => {
    expectKey(
      await t.request('PATCH', `${base}/rate_plans/PP`, { token, body: { partner_code: 'BAR' } }),
      409,
      'errors.qc.partner_code_taken',
    );
  });

  it('requires sell_type and well-formed occupancies on PUT pricing-model', async () => {
    const missing = await t.request('PUT', `${base}/rate_plans/PP/pricing-model`, { token, body: {} });
    expectKey(missing, 422, 'errors.validation_error');
    expect(missing.body.errors.sell_type).toContain('customer.rate_plan.messages.required');
    const bad = await t.request('PUT', `${base}/rate_plans/PP/pricing-model`, {
      token,
      body: { sell_type: 'per_person', occupancies: [{ code: 'A1', kind: 'fee' }] },
    });
    expect(bad.body.errors).toEqual({ 'occupancies.0.fee': ['customer.rate_plan.messages.required'] });
  });
});
