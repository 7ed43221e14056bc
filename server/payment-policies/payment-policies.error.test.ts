import { describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/payment_policies`;

describe('payment policy refusals', () => {
  it('requires num_days for af_res and be_arr, and date for be_dat', async () => {
    for (const pay_type of ['af_res', 'be_arr'])
      expect(validationErrors(await call(c, 'POST', base(), { name: 'x', pay_type }))).toEqual({
        num_days: ['customer.payment_policy.messages.required'],
      });
    expect(validationErrors(await call(c, 'POST', base(), { name: 'x', pay_type: 'be_dat' }))).toEqual({
      date: ['customer.payment_policy.messages.required'],
    });
  });

  it('keeps num_days within 1..1000 and pay_type within the enum', async () => {
    for (const num_days of [0, 1001, 2.5])
      expect(
        Object.keys(validationErrors(await call(c, 'POST', base(), { name: 'x', pay_type: 'af_res', num_days }))),
      ).toEqual(['num_days']);
    expect(validationErrors(await call(c, 'POST', base(), { name: 'x', pay_type: 'cash' }))).toEqual({
      pay_type: ['customer.payment_policy.messages.in'],
    });
    expect(Object.keys(validationErrors(await call(c, 'POST', base(), { pay_type: 'on_res' })))).toEqual(['name']);
  });

  it('checks the merged terms on PATCH and writes nothing when they fail', async () => {
    const created = await call(c, 'POST', base(), { name: 'On arrival', pay_type: 'on_arr' });
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { pay_type: 'be_arr' });
    expect(validationErrors(res)).toEqual({ num_days: ['customer.payment_policy.messages.required'] });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).body.data.pay_type).toBe('on_arr');
  });

  it('refuses to delete a policy a rate plan references with 409 naming the plans', async () => {
    const plans = (c.demo.properties[0] as any).rate_plans as { id: string }[];
    const [placeholder] = (await call(c, 'GET', base())).body.data.payment_policies;
    const res = await call(c, 'DELETE', `${base()}/${placeholder.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.payment_policy_in_use');
    expect(res.body.rate_plan_ids).toEqual([...new Set(plans.map((p) => p.id))]);
    expect((await call(c, 'GET', `${base()}/${placeholder.id}`)).status).toBe(200);
  });

  it('answers 404 for an unknown id, a non-UUID id and a policy of another property', async () => {
    const shadow = c.demo.properties[1]?.id as string;
    const [foreign] = (await call(c, 'GET', `/properties/${shadow}/payment_policies`)).body.data.payment_policies;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', foreign.id]) {
      expect((await call(c, 'GET', `${base()}/${id}`)).status).toBe(404);
      expect((await call(c, 'PATCH', `${base()}/${id}`, { name: 'x' })).status).toBe(404);
      expect((await call(c, 'DELETE', `${base()}/${id}`)).status).toBe(404);
    }
  });
});
