import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/payment_policies`;

describe('payment policies', () => {
  it('lists the placeholder rate plan creation seeded as an ordinary, readable policy', async () => {
    const res = await call(c, 'GET', base());
    expect(res.status).toBe(200);
    const [placeholder] = res.body.data.payment_policies;
    expect(placeholder).toMatchObject({ pay_type: 'on_arr', num_days: null, date: null, is_placeholder: true });
    const plan = await call(
      c,
      'GET',
      `/properties/${c.property}/rate_plans/${(c.demo.properties[0] as any).rate_plans[0].id}`,
    );
    expect(plan.body.data.payment_policy_id).toBe(placeholder.id);
    const one = await call(c, 'GET', `${base()}/${placeholder.id}`);
    expect(one.body.data).toEqual(placeholder);
  });

  it('makes a placeholder an ordinary policy once the partner edits it', async () => {
    const [placeholder] = (await call(c, 'GET', base())).body.data.payment_policies;
    const res = await call(c, 'PATCH', `${base()}/${placeholder.id}`, { pay_type: 'be_arr', num_days: 7, percent: 30 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: placeholder.id,
      pay_type: 'be_arr',
      num_days: 7,
      percent: 30,
      is_placeholder: false,
    });
    expect(await eventsOf(c, 'payment_policy.updated')).toContainEqual({
      property_id: c.property,
      payment_policy_id: placeholder.id,
      pay_type: 'be_arr',
    });
  });

  it('creates each pay type with the terms it needs and drops the ones it does not use', async () => {
    const cases = [
      [{ pay_type: 'on_res' }, { num_days: null, date: null }],
      [
        { pay_type: 'af_res', num_days: 3 },
        { num_days: 3, date: null },
      ],
      [
        { pay_type: 'be_arr', num_days: 1000, date: '2027-01-01' },
        { num_days: 1000, date: null },
      ],
      [
        { pay_type: 'on_arr', num_days: 5 },
        { num_days: null, date: null },
      ],
      [{ pay_type: 'on_dep' }, { num_days: null, date: null }],
      [
        { pay_type: 'be_dat', date: '2027-03-01' },
        { num_days: null, date: '2027-03-01' },
      ],
    ] as const;
    for (const [input, terms] of cases) {
      const res = await call(c, 'POST', base(), { name: `Pay ${input.pay_type}`, ...input });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ ...terms, pay_type: input.pay_type, percent: 100, is_placeholder: false });
      const created = await eventsOf(c, 'payment_policy.created');
      expect(created).toContainEqual({
        property_id: c.property,
        payment_policy_id: res.body.data.id,
        placeholder: false,
      });
    }
  });

  it('keeps the fields a PATCH leaves out', async () => {
    const created = await call(c, 'POST', base(), {
      name: 'Deposit',
      name_tr: { 'pt-PT': 'Sinal' },
      pay_type: 'af_res',
      num_days: 2,
      percent: 20,
    });
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { name: 'Deposit 20%' });
    expect(res.body.data).toMatchObject({
      name: 'Deposit 20%',
      name_tr: { 'pt-PT': 'Sinal' },
      num_days: 2,
      percent: 20,
    });
  });

  it('deletes a policy no rate plan uses; it is gone from list and show', async () => {
    const created = await call(c, 'POST', base(), { name: 'Temporary', pay_type: 'on_dep' });
    const res = await call(c, 'DELETE', `${base()}/${created.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: created.body.data.id, deleted: true });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).status).toBe(404);
    const ids = (await call(c, 'GET', base(), undefined)).body.data.payment_policies.map((p: { id: string }) => p.id);
    expect(ids).not.toContain(created.body.data.id);
    expect(await eventsOf(c, 'payment_policy.deleted')).toContainEqual({
      property_id: c.property,
      payment_policy_id: created.body.data.id,
    });
  });

  it('pages the list with meta', async () => {
    const res = await c.t.request('GET', `/v1/qc${base()}`, { token: c.token, query: { per_page: 2, page: 2 } });
    expect(res.body.data.meta).toMatchObject({ page: 2, per_page: 2 });
    expect(res.body.data.payment_policies.length).toBeLessThanOrEqual(2);
    expect(res.body.data.meta.last_page).toBe(Math.ceil(res.body.data.meta.total / 2));
  });
});
