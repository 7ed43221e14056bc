import { beforeAll, describe, expect, it } from 'bun:test';
import type { DemoProperty } from '../demo/demo.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

let token: string;
let base: string;

const live = () => demo.properties[0] as DemoProperty;
const room = (code: string) => live().room_types.find((r) => r.partner_code === code)?.id ?? '';
const plan = (code: string) => live().rate_plans.find((p) => p.partner_code === code)?.id ?? '';
const codes = (entry: { occupancies?: { code: string }[] }) => entry.occupancies?.map((o) => o.code).join(' ');

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  token = demo.personal_token;
  base = `/v1/qc/properties/${live().id}`;
});

async function events(type: string, propertyExternalId = live().id) {
  return t.deps.db.sql<{ data: Record<string, unknown> }>`
    select e.data from outbox_events e join properties p on p.id = e.property_id
    where e.type = ${type} and p.external_id = ${propertyExternalId} order by e.id`;
}

describe('GET rate_plans', () => {
  it('lists one entry per rate plan x room type pair with the spec 2.4 fields', async () => {
    const res = await t.request('GET', `${base}/rate_plans`, { token });
    expect(res.status).toBe(200);
    const entries = res.body.data.rate_plans;
    expect(entries).toHaveLength(8);
    expect(res.body.data.meta).toEqual({ total: 8, page: 1, per_page: 200, last_page: 1 });
    const bar = entries.find((e: any) => e.partner_code === 'BAR' && e.room_type_id === room('DBL'));
    expect(bar).toEqual({
      external_rate_plan_id: plan('BAR'),
      id: plan('BAR'),
      name: 'Flexible Room Rate',
      name_tr: { 'en-GB': 'Flexible Room Rate' },
      room_type_id: room('DBL'),
      parent_rate_plan_id: null,
      sell_type: 'per_room',
      prices_writable: true,
      meal_plan: 'breakfast',
      partner_code: 'BAR',
      occupancies: [{ code: 'ROOM', kind: 'manual', persons: 3 }],
      explicit_occupancies: false,
    });
    const child = entries.find((e: any) => e.partner_code === 'NRF');
    expect(child.parent_rate_plan_id).toBe(plan('BAR'));
    expect(child.prices_writable).toBe(false);
    expect(child.derivation).toEqual({ percent: -10 });
    expect('occupancies' in child).toBe(false);
  });

  it('gives two rooms on one per_person plan their own vocabularies', async () => {
    const res = await t.request('GET', `${base}/rate_plans`, { token });
    const pp = res.body.data.rate_plans.filter((e: any) => e.partner_code === 'PP');
    expect(codes(pp.find((e: any) => e.room_type_id === room('DBL')))).toBe(
      'A1 A2 AEB TRB TEB TNB CRB CEB CNB IRB IEB INB',
    );
    expect(codes(pp.find((e: any) => e.room_type_id === room('APT')))).toBe(
      'A1 A2 A3 A4 AEB TRB TEB TNB CRB CEB CNB IRB IEB INB',
    );
  });

  it('pages over pairs with last_page computed from the total', async () => {
    const res = await t.request('GET', `${base}/rate_plans`, { token, query: { per_page: 3, page: 3 } });
    expect(res.body.data.meta).toEqual({ total: 8, page: 3, per_page: 3, last_page: 3 });
    expect(res.body.data.rate_plans).toHaveLength(2);
  });

  it('answers one plan with the very entries the list answers for it, mappings as their deprecated alias', async () => {
    const list = await t.request('GET', `${base}/rate_plans`, { token });
    for (const code of ['OCC', 'NRF']) {
      const one = await t.request('GET', `${base}/rate_plans/${plan(code)}`, { token });
      const listed = list.body.data.rate_plans.filter((e: any) => e.id === plan(code));
      expect(listed.length).toBeGreaterThan(0);
      expect(one.body.data.rate_plans).toEqual(listed);
      expect(one.body.data.mappings).toEqual(listed);
    }
  });

  it('shows one plan with every pair under rate_plans, alike by external id and by partner code', async () => {
    const byId = await t.request('GET', `${base}/rate_plans/${plan('OCC')}`, { token });
    const byCode = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.partner_code}/rate_plans/OCC`, {
      token,
    });
    expect(byId.status).toBe(200);
    expect(byCode.body).toEqual(byId.body);
    const data = byId.body.data;
    expect(data.sell_type).toBe('per_occupancy');
    expect(data.room_type_ids).toEqual([room('DBL'), room('APT')]);
    expect(data.rate_plans.map((m: any) => m.room_type_id)).toEqual([room('DBL'), room('APT')]);
    expect(codes(data.rate_plans[0])).toBe('A1 A2 Apn1 Apn2 Tpn1 Tpn2 Cpn1 Cpn2 Ipn1 Ipn2');
    expect(data.payment_policy_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.cancellation_policy_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST rate_plans', () => {
  it('creates a plan with a pair per room and answers 201 with its pair entries and a rate_plan.created event', async () => {
    const res = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: {
        title: 'Summer',
        room_type_ids: [room('DBL'), 'APT'],
        sell_type: 'per_person',
        meal_plan: 'half_board',
        partner_code: 'SUM',
      },
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.id).toBe(data.external_rate_plan_id);
    expect(data.parent_rate_plan_id).toBeNull();
    expect(data.rate_plans.map((m: any) => [m.room_type_id, m.parent_rate_plan_id, m.sell_type])).toEqual([
      [room('DBL'), null, 'per_person'],
      [room('APT'), null, 'per_person'],
    ]);
    const shown = await t.request('GET', `${base}/rate_plans/SUM`, { token });
    expect(shown.body.data).toEqual(data);
    const created = (await events('rate_plan.created')).map((e) => e.data).find((d) => d.rate_plan_id === data.id);
    expect(created).toEqual({
      property_id: live().id,
      rate_plan_id: data.id,
      room_type_ids: [room('DBL'), room('APT')],
      sell_type: 'per_person',
      parent_rate_plan_id: null,
    });
  });

  it('applies explicit occupancies on a single room, dropping codes invalid for its beds', async () => {
    const res = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: {
        title: 'Explicit',
        room_type_ids: ['DBL'],
        sell_type: 'per_person',
        occupancies: [
          { code: 'A2' },
          { code: 'A1', pricing: { derived_from: 'A2', adjust: '-10%' } },
          { code: 'AEB', pricing: { derived_from: 'A2', adjust: '+5' } },
          { code: 'A3' },
          { code: 'CNB', kind: 'cost_free' },
          { code: 'TEB', kind: 'fee', fee: 20 },
        ],
      },
    });
    expect(res.status).toBe(201);
    const [pair] = res.body.data.rate_plans;
    expect(pair.explicit_occupancies).toBe(true);
    expect(pair.occupancies).toEqual([
      { code: 'A1', kind: 'derived', persons: 1, derived_from: 'A2', modifier: ['decrease_by_percent', 10] },
      { code: 'A2', kind: 'manual', persons: 2 },
      { code: 'AEB', kind: 'derived', persons: 1, derived_from: 'A2', modifier: ['increase_by_amount', 5] },
      { code: 'TEB', kind: 'fee', persons: 1, fee: 20, from_age: 12, to_age: 17 },
      { code: 'CNB', kind: 'cost_free', persons: 1, from_age: 3, to_age: 11 },
    ]);
  });

  it('creates a child plan from a parent named by partner code, on all its rooms, with the derivation stored', async () => {
    const res = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: {
        title: 'Member',
        parent_rate_plan_id: 'PP',
        derivation: { adjust: '-15%', periods: [{ from: '2026-07-01', to: '2026-08-31', percent: -5 }] },
      },
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.parent_rate_plan_id).toBe(plan('PP'));
    expect(data.sell_type).toBe('per_person');
    expect(data.prices_writable).toBe(false);
    expect(data.derivation).toEqual({ percent: -15, periods: [{ from: '2026-07-01', to: '2026-08-31', percent: -5 }] });
    expect(data.rate_plans.map((m: any) => [m.room_type_id, m.parent_rate_plan_id, 'occupancies' in m])).toEqual([
      [room('DBL'), plan('PP'), false],
      [room('APT'), plan('PP'), false],
    ]);
    // The stored (read-only) vocabulary is the parent's, for the inventory engine's validation.
    const stored = await t.deps.db.sql<{ same: boolean }>`
      select c.occupancies = p.occupancies as same from rate_plan_rooms c
      join rate_plans cp on cp.id = c.rate_plan_id
      join rate_plan_rooms p on p.room_type_id = c.room_type_id and p.rate_plan_id = cp.parent_id
      where cp.external_id = ${data.id}`;
    expect(stored.map((s) => s.same)).toEqual([true, true]);
  });

  it('defaults a child derivation to 0% and accepts percent with the parent given by external id', async () => {
    const zero = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: { title: 'Same', parent_rate_plan_id: plan('BAR'), room_type_ids: ['APT'] },
    });
    expect(zero.status).toBe(201);
    expect(zero.body.data.derivation).toEqual({ percent: 0 });
    expect(zero.body.data.room_type_ids).toEqual([room('APT')]);
    const pct = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: { title: 'Up', parent_rate_plan_id: plan('BAR'), derivation: { percent: 12.5 } },
    });
    expect(pct.body.data.derivation).toEqual({ percent: 12.5 });
  });
});

describe('placeholder policies', () => {
  it('creates one API-default payment and cancellation policy on a property without any, then reuses them', async () => {
    const d = await t.demo();
    const propertyId = (d.properties[1] as { id: string }).id;
    // The demo seeded the shadow property's policies; a fresh property has none.
    const created = await t.request('POST', '/v1/qc/properties', {
      token: d.personal_token,
      body: { name: 'Fresh', type_id: 1, currency: 'EUR', timezone: 'Europe/Rome', partner_code: 'FRESH' },
    });
    const fresh = created.body.data.id;
    expect(fresh).not.toBe(propertyId);
    const rt = await t.request('POST', `/v1/qc/properties/${fresh}/room_types`, {
      token: d.personal_token,
      body: { name: 'Twin', partner_code: 'TWN' },
    });
    const first = await t.request('POST', `/v1/qc/properties/FRESH/rate_plans`, {
      token: d.personal_token,
      body: { title: 'A', room_type_ids: [rt.body.data.id], sell_type: 'per_room' },
    });
    const second = await t.request('POST', `/v1/qc/properties/FRESH/rate_plans`, {
      token: d.personal_token,
      body: { title: 'B', room_type_ids: ['TWN'], sell_type: 'per_room' },
    });
    expect(first.status).toBe(201);
    expect(second.body.data.payment_policy_id).toBe(first.body.data.payment_policy_id);
    expect(second.body.data.cancellation_policy_id).toBe(first.body.data.cancellation_policy_id);
    const payment = await t.deps.db.sql<{ name: string; is_placeholder: boolean; external_id: string }>`
      select pp.name, pp.is_placeholder, pp.external_id from payment_policies pp join properties p on p.id = pp.property_id
      where p.external_id = ${fresh}`;
    const cancellation = await t.deps.db.sql<{ name: string }>`
      select cp.name from cancellation_policies cp join properties p on p.id = cp.property_id where p.external_id = ${fresh}`;
    expect(payment).toEqual([
      {
        name: 'API default – payment on arrival',
        is_placeholder: true,
        external_id: first.body.data.payment_policy_id,
      },
    ]);
    expect(cancellation.map((c) => c.name)).toEqual(['API default – cancellation policy']);
    expect((await events('payment_policy.created', fresh)).map((e) => e.data)).toEqual([
      { property_id: fresh, payment_policy_id: first.body.data.payment_policy_id, placeholder: true },
    ]);
    expect((await events('cancellation_policy.created', fresh)).map((e) => e.data)).toEqual([
      { property_id: fresh, cancellation_policy_id: first.body.data.cancellation_policy_id, placeholder: true },
    ]);
  });

  it('seeds one placeholder pair when creations race on a property without policies', async () => {
    const d = await t.demo();
    const created = await t.request('POST', '/v1/qc/properties', {
      token: d.personal_token,
      body: { name: 'Race', type_id: 1, currency: 'EUR', timezone: 'UTC', partner_code: 'RACE' },
    });
    await t.request('POST', '/v1/qc/properties/RACE/room_types', {
      token: d.personal_token,
      body: { name: 'R', partner_code: 'R' },
    });
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        t.request('POST', '/v1/qc/properties/RACE/rate_plans', {
          token: d.personal_token,
          body: { title: `P${i}`, room_type_ids: ['R'], sell_type: 'per_room' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.data.payment_policy_id)).size).toBe(1);
    const [counts] = await t.deps.db.sql<{ payment: number; cancellation: number }>`
      select (select count(*)::int from payment_policies where property_id = p.id) as payment,
        (select count(*)::int from cancellation_policies where property_id = p.id) as cancellation
      from properties p where p.external_id = ${created.body.data.id}`;
    expect(counts).toEqual({ payment: 1, cancellation: 1 });
  });

  it('uses explicit policy ids of the property over the default ones', async () => {
    const [policy] = await t.deps.db.sql<{ external_id: string }>`
      insert into payment_policies (property_id, name, pay_type, num_days)
      select id, 'Prepay', 'be_arr', 7 from properties where external_id = ${live().id} returning external_id`;
    const res = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: { title: 'Prepaid', room_type_ids: ['DBL'], sell_type: 'per_room', payment_policy_id: policy?.external_id },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.payment_policy_id).toBe(policy?.external_id ?? '');
    const placeholder = await t.request('GET', `${base}/rate_plans/BAR`, { token });
    expect(res.body.data.cancellation_policy_id).toBe(placeholder.body.data.cancellation_policy_id);
  });
});

describe('PATCH rate_plans', () => {
  it('flips the sell type, re-derives every pair, records rate_plan.updated and carries the child along', async () => {
    const res = await t.request('PATCH', `${base}/rate_plans/BAR`, { token, body: { sell_type: 'per_occupancy' } });
    expect(res.status).toBe(200);
    expect(res.body.data.sell_type).toBe('per_occupancy');
    expect(res.body.data.rate_plans.map(codes)).toEqual([
      'A1 A2 Apn1 Apn2 Tpn1 Tpn2 Cpn1 Cpn2 Ipn1 Ipn2',
      'A1 A2 A3 A4 Apn1 Apn2 Apn3 Apn4 Apn5 Tpn1 Tpn2 Tpn3 Tpn4 Tpn5 Cpn1 Cpn2 Cpn3 Cpn4 Cpn5 Ipn1 Ipn2 Ipn3 Ipn4 Ipn5',
    ]);
    const child = await t.request('GET', `${base}/rate_plans/NRF`, { token });
    expect(child.body.data.sell_type).toBe('per_occupancy');
    const updated = (await events('rate_plan.updated')).map((e) => e.data);
    expect(updated).toContainEqual({
      property_id: live().id,
      rate_plan_id: plan('BAR'),
      room_type_ids: [room('DBL'), room('APT')],
      sell_type: 'per_occupancy',
      previous_sell_type: 'per_room',
      parent_rate_plan_id: null,
    });
    expect(updated).toContainEqual(
      expect.objectContaining({
        rate_plan_id: plan('NRF'),
        sell_type: 'per_occupancy',
        parent_rate_plan_id: plan('BAR'),
      }),
    );

    const back = await t.request('PATCH', `${base}/rate_plans/${plan('BAR')}`, {
      token,
      body: { sell_type: 'per_room' },
    });
    expect(back.body.data.rate_plans.map(codes)).toEqual(['ROOM', 'ROOM']);
    const [copy] = await t.deps.db.sql<{ occupancies: unknown }>`
      select rp.occupancies from rate_plan_rooms rp join rate_plans p on p.id = rp.rate_plan_id
      join room_types r on r.id = rp.room_type_id where p.external_id = ${plan('NRF')} and r.external_id = ${room('DBL')}`;
    expect(copy?.occupancies).toEqual([{ code: 'ROOM', kind: 'manual', persons: 3 }]);
  });

  it('changes name, meal plan and partner code without an event, and answers the plan', async () => {
    const before = (await events('rate_plan.updated')).length;
    const res = await t.request('PATCH', `${base}/rate_plans/OCC`, {
      token,
      body: { title: 'Occupancy 2', meal_plan: 'breakfast', partner_code: 'OCC2' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Occupancy 2',
      meal_plan: 'breakfast',
      partner_code: 'OCC2',
      sell_type: 'per_occupancy',
    });
    expect((await t.request('GET', `${base}/rate_plans/OCC2`, { token })).status).toBe(200);
    expect((await events('rate_plan.updated')).length).toBe(before);
    await t.request('PATCH', `${base}/rate_plans/OCC2`, { token, body: { partner_code: 'OCC' } });
  });

  it('moves a plan to other policies of the property, which frees the old ones for DELETE', async () => {
    const payment = await t.request('POST', `${base}/payment_policies`, {
      token,
      body: { name: 'Pay at the desk', pay_type: 'on_dep' },
    });
    const cancellation = await t.request('POST', `${base}/cancellation_policies`, {
      token,
      body: { name: 'Own rules', data: [] },
    });
    const created = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: {
        title: 'Moved',
        room_type_ids: ['DBL'],
        sell_type: 'per_room',
        payment_policy_id: payment.body.data.id,
        cancellation_policy_id: cancellation.body.data.id,
      },
    });
    const other = await t.request('GET', `${base}/rate_plans/BAR`, { token });
    const inUse = await t.request('DELETE', `${base}/payment_policies/${payment.body.data.id}`, { token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.rate_plan_ids).toEqual([created.body.data.id]);

    const moved = await t.request('PATCH', `${base}/rate_plans/${created.body.data.id}`, {
      token,
      body: {
        payment_policy_id: other.body.data.payment_policy_id,
        cancellation_policy_id: other.body.data.cancellation_policy_id,
      },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.warnings).toBeUndefined();
    expect(moved.body.data).toMatchObject({
      payment_policy_id: other.body.data.payment_policy_id,
      cancellation_policy_id: other.body.data.cancellation_policy_id,
    });
    expect((await t.request('GET', `${base}/rate_plans/${created.body.data.id}`, { token })).body.data).toMatchObject({
      payment_policy_id: other.body.data.payment_policy_id,
    });
    for (const path of [
      `payment_policies/${payment.body.data.id}`,
      `cancellation_policies/${cancellation.body.data.id}`,
    ]) {
      expect((await t.request('DELETE', `${base}/${path}`, { token })).status).toBe(200);
    }
  });
});

describe('PUT pricing-model', () => {
  it('is idempotent: the same body gives the same answer and one rate_plan.updated', async () => {
    const created = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: { title: 'Model', room_type_ids: ['DBL', 'APT'], sell_type: 'per_room' },
    });
    const id = created.body.data.id;
    const before = (await events('rate_plan.updated')).length;
    const body = { sell_type: 'per_person', occupancies: [{ code: 'A1' }, { code: 'A2' }, { code: 'A4' }] };
    const first = await t.request('PUT', `${base}/rate_plans/${id}/pricing-model`, { token, body });
    const second = await t.request('PUT', `${base}/rate_plans/${id}/pricing-model`, { token, body });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      rate_plan_id: id,
      sell_type: 'per_person',
      pairs_updated: 2,
      explicit_occupancies: true,
    });
    expect(second.body).toEqual(first.body);
    expect((await events('rate_plan.updated')).length).toBe(before + 1);
    const shown = await t.request('GET', `${base}/rate_plans/${id}`, { token });
    expect(shown.body.data.rate_plans.map(codes)).toEqual(['A1 A2', 'A1 A2 A4']);
  });

  it('resets to the computed vocabulary without occupancies', async () => {
    const created = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: { title: 'Narrow', room_type_ids: ['DBL'], sell_type: 'per_person', occupancies: [{ code: 'A2' }] },
    });
    const res = await t.request('PUT', `${base}/rate_plans/${created.body.data.id}/pricing-model`, {
      token,
      body: { sell_type: 'per_person' },
    });
    expect(res.body.data).toMatchObject({ pairs_updated: 1, explicit_occupancies: false });
    const shown = await t.request('GET', `${base}/rate_plans/${created.body.data.id}`, { token });
    expect(codes(shown.body.data.rate_plans[0])).toBe('A1 A2 AEB TRB TEB TNB CRB CEB CNB IRB IEB INB');
  });

  it('skips a derivative plan and changes nothing', async () => {
    const res = await t.request('PUT', `${base}/rate_plans/NRF/pricing-model`, {
      token,
      body: { sell_type: 'per_person' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      rate_plan_id: plan('NRF'),
      sell_type: 'per_room',
      pairs_updated: 0,
      explicit_occupancies: false,
      skipped: 'derived_plan',
    });
    expect((await t.request('GET', `${base}/rate_plans/NRF`, { token })).body.data.sell_type).toBe('per_room');
  });
});

describe('age groups in the vocabulary', () => {
  it('reads the property age brackets when computing child codes', async () => {
    const d = await t.demo();
    const p = d.properties[0] as DemoProperty;
    await t.deps.db.sql`insert into age_groups (property_id, is_active, groups)
      select id, true, ${[{ code: 'I', from_age: 0, to_age: 2 }, { code: 'C', from_age: 3, to_age: 12 }]}::jsonb
      from properties where external_id = ${p.id}`;
    const res = await t.request('POST', `/v1/qc/properties/${p.id}/rate_plans`, {
      token: d.personal_token,
      body: { title: 'Kids', room_type_ids: ['DBL'], sell_type: 'per_person' },
    });
    expect(codes(res.body.data.rate_plans[0])).toBe('A1 A2 AEB CRB CEB CNB IRB IEB INB');
    await t.deps.db
      .sql`update age_groups set is_active = false where property_id = (select id from properties where external_id = ${p.id})`;
    const reset = await t.request('PUT', `/v1/qc/properties/${p.id}/rate_plans/${res.body.data.id}/pricing-model`, {
      token: d.personal_token,
      body: { sell_type: 'per_person' },
    });
    expect(reset.status).toBe(200);
    const shown = await t.request('GET', `/v1/qc/properties/${p.id}/rate_plans/${res.body.data.id}`, {
      token: d.personal_token,
    });
    expect(codes(shown.body.data.rate_plans[0])).toBe('A1 A2 AEB');
  });
});

describe('PATCH with the current sell type', () => {
  it('is no flip: explicit occupancies stay and no event is recorded', async () => {
    const created = await t.request('POST', `${base}/rate_plans`, {
      token,
      body: {
        title: 'Keep',
        room_type_ids: ['DBL'],
        sell_type: 'per_person',
        occupancies: [{ code: 'A1' }, { code: 'A2' }],
      },
    });
    const id = created.body.data.id;
    const before = (await events('rate_plan.updated')).length;
    const res = await t.request('PATCH', `${base}/rate_plans/${id}`, { token, body: { sell_type: 'per_person' } });
    expect(res.status).toBe(200);
    expect(codes(res.body.data.rate_plans[0])).toBe('A1 A2');
    expect(res.body.data.rate_plans[0].explicit_occupancies).toBe(true);
    expect((await events('rate_plan.updated')).length).toBe(before);
  });
});
