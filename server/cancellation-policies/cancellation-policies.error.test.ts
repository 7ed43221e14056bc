import { describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/cancellation_policies`;
/** POST of a named policy with these rules. */
const createWith = (data: unknown[]) => call(c, 'POST', base(), { name_tr: { 'en-GB': 'Policy' }, data });

describe('cancellation policy refusals', () => {
  it("names the rule's missing term by its path", async () => {
    const res = await createWith([
      { c_type: 'no_show', p_type: 'percent', p_value: 100 },
      { c_type: 'days_before_arrival', p_type: 'percent', p_value: 50 },
      { c_type: 'after_date', p_type: 'amount', p_value: 10 },
      { c_type: 'after_booking', p_type: 'nights' },
    ]);
    expect(validationErrors(res)).toEqual({
      'data.1.p_days': ['customer.cancellation_policy.messages.required'],
      'data.2.p_date': ['customer.cancellation_policy.messages.required'],
      'data.3.p_value': ['customer.cancellation_policy.messages.required'],
    });
  });

  it('requires c_type and p_type from their value sets and valid charge values', async () => {
    const missing = validationErrors(await createWith([{ p_days: 3 }]));
    expect(Object.keys(missing).sort()).toEqual(['data.0.c_type', 'data.0.p_type']);
    const unknown = validationErrors(await createWith([{ c_type: 'whenever', p_type: 'percent', p_value: 5 }]));
    expect(unknown).toEqual({ 'data.0.c_type': ['customer.cancellation_policy.messages.in'] });
    const values = validationErrors(
      await createWith([
        { c_type: 'no_show', p_type: 'percent', p_value: 120 },
        { c_type: 'no_show', p_type: 'nights', p_value: 1.5 },
        { c_type: 'no_show', p_type: 'percent', p_value: 0 },
      ]),
    );
    expect(values).toEqual({
      'data.0.p_value': ['customer.cancellation_policy.messages.percent'],
      'data.1.p_value': ['customer.cancellation_policy.messages.nights'],
      'data.2.p_value': ['customer.cancellation_policy.messages.percent'],
    });
  });

  it('accepts 50 rules and refuses 51', async () => {
    const rule = { c_type: 'no_show', p_type: 'percent', p_value: 100 };
    expect((await createWith(Array(50).fill(rule))).status).toBe(201);
    expect(validationErrors(await createWith(Array(51).fill(rule)))).toEqual({
      data: ['customer.cancellation_policy.messages.max_items'],
    });
  });

  it('needs a name: name or a non-empty name_tr value; name_tr of empty texts is too short, not missing', async () => {
    expect(validationErrors(await call(c, 'POST', base(), { name_tr: { 'en-GB': ' ' }, data: [] }))).toEqual({
      name_tr: ['customer.cancellation_policy.messages.min_length'],
    });
    for (const naming of [{ name_tr: {} }, { name: ' ' }, {}])
      expect(validationErrors(await call(c, 'POST', base(), { ...naming, data: [] }))).toEqual({
        name_tr: ['customer.cancellation_policy.messages.required'],
      });
    const created = await call(c, 'POST', base(), { name: 'Strict', name_tr: {}, data: [] });
    expect(created.status).toBe(201);
    const patched = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { name_tr: { 'en-GB': '' } });
    expect(patched.status).toBe(422);
    expect(patched.body.detail).toBe('name_tr: is too short.');
  });

  it('writes nothing when a PATCH breaks a rule', async () => {
    const created = await createWith([{ c_type: 'no_show', p_type: 'percent', p_value: 100 }]);
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, {
      data: [{ c_type: 'days_before_arrival', p_type: 'percent', p_value: 10 }],
    });
    expect(Object.keys(validationErrors(res))).toEqual(['data.0.p_days']);
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).body.data.data[0].c_type).toBe('no_show');
  });

  it('refuses to delete a policy a rate plan references with 409 naming the plans', async () => {
    const [placeholder] = (await call(c, 'GET', base())).body.data.cancellation_policies;
    const res = await call(c, 'DELETE', `${base()}/${placeholder.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.cancellation_policy_in_use');
    const plans = (c.demo.properties[0] as any).rate_plans as { id: string }[];
    expect(res.body.rate_plan_ids).toEqual([...new Set(plans.map((p) => p.id))]);
  });

  it('answers 404 for an unknown id and a policy of another property', async () => {
    const shadow = c.demo.properties[1]?.id as string;
    const [foreign] = (await call(c, 'GET', `/properties/${shadow}/cancellation_policies`)).body.data
      .cancellation_policies;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', foreign.id]) {
      expect((await call(c, 'GET', `${base()}/${id}`)).status).toBe(404);
      expect((await call(c, 'PATCH', `${base()}/${id}`, { name: 'x' })).status).toBe(404);
      expect((await call(c, 'DELETE', `${base()}/${id}`)).status).toBe(404);
    }
  });
});
