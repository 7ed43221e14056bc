import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const base = () => `/properties/${c.property}/cancellation_policies`;

const flexible = {
  name_tr: { 'en-GB': 'Flexible', 'pt-PT': 'Flexível' },
  data: [
    { c_type: 'days_before_arrival', p_type: 'percent', p_days: 7, p_value: 50 },
    { c_type: 'days_before_arrival', p_type: 'nights', p_days: 2, p_value: 1 },
    { c_type: 'no_show', p_type: 'percent', p_value: 100 },
  ],
};

describe('cancellation policies', () => {
  it('lists the placeholder rate plan creation seeded (no rules: free) and the plans point at it', async () => {
    const res = await call(c, 'GET', base());
    expect(res.status).toBe(200);
    const [placeholder] = res.body.data.cancellation_policies;
    expect(placeholder).toMatchObject({ data: [], is_placeholder: true });
    const planId = (c.demo.properties[0] as any).rate_plans[0].id;
    const plan = await call(c, 'GET', `/properties/${c.property}/rate_plans/${planId}`);
    expect(plan.body.data.cancellation_policy_id).toBe(placeholder.id);
    expect((await call(c, 'GET', `${base()}/${placeholder.id}`)).body.data).toEqual(placeholder);
  });

  it('creates a policy with its rules, answering unused terms null and the name from name_tr', async () => {
    const res = await call(c, 'POST', base(), {
      ...flexible,
      data: [
        ...flexible.data,
        { c_type: 'after_booking', p_type: 'amount', p_value: 20, p_days: 9, p_date: '2027-01-01' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Flexible', name_tr: flexible.name_tr, is_placeholder: false });
    expect(res.body.data.data).toEqual([
      { c_type: 'days_before_arrival', p_type: 'percent', p_days: 7, p_date: null, p_value: 50 },
      { c_type: 'days_before_arrival', p_type: 'nights', p_days: 2, p_date: null, p_value: 1 },
      { c_type: 'no_show', p_type: 'percent', p_days: null, p_date: null, p_value: 100 },
      { c_type: 'after_booking', p_type: 'amount', p_days: null, p_date: null, p_value: 20 },
    ]);
    expect(await eventsOf(c, 'cancellation_policy.created')).toContainEqual({
      property_id: c.property,
      cancellation_policy_id: res.body.data.id,
      placeholder: false,
    });
  });

  it('creates a policy named only by name, storing and answering name_tr as {"en-GB": name}', async () => {
    for (const body of [
      { name: 'Only name', data: [] },
      { name: 'Only name', name_tr: {}, data: [] },
    ]) {
      const res = await call(c, 'POST', base(), body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ name: 'Only name', name_tr: { 'en-GB': 'Only name' } });
      expect((await call(c, 'GET', `${base()}/${res.body.data.id}`)).body.data.name_tr).toEqual({
        'en-GB': 'Only name',
      });
    }
  });

  it('replaces the rules as a whole on PATCH and keeps the names', async () => {
    const created = await call(c, 'POST', base(), { ...flexible, name: 'Flex 7' });
    const rules = [{ c_type: 'after_date', p_type: 'percent', p_date: '2027-06-01', p_value: 100 }];
    const res = await call(c, 'PATCH', `${base()}/${created.body.data.id}`, { data: rules });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Flex 7', name_tr: flexible.name_tr });
    expect(res.body.data.data).toEqual([{ ...rules[0], p_days: null }]);
    expect(await eventsOf(c, 'cancellation_policy.updated')).toContainEqual({
      property_id: c.property,
      cancellation_policy_id: created.body.data.id,
      rules: 1,
    });
  });

  it('makes an edited placeholder an ordinary policy the plans keep using', async () => {
    const [placeholder] = (await call(c, 'GET', base())).body.data.cancellation_policies;
    const res = await call(c, 'PATCH', `${base()}/${placeholder.id}`, { name: 'Standard', data: flexible.data });
    expect(res.body.data).toMatchObject({ id: placeholder.id, name: 'Standard', is_placeholder: false });
    expect(res.body.data.data).toHaveLength(3);
  });

  it('deletes a policy no rate plan uses', async () => {
    const created = await call(c, 'POST', base(), flexible);
    const res = await call(c, 'DELETE', `${base()}/${created.body.data.id}`);
    expect(res.body).toEqual({ status: 'ok', message: 'ok', data: { id: created.body.data.id, deleted: true } });
    expect((await call(c, 'GET', `${base()}/${created.body.data.id}`)).status).toBe(404);
    expect(await eventsOf(c, 'cancellation_policy.deleted')).toContainEqual({
      property_id: c.property,
      cancellation_policy_id: created.body.data.id,
    });
  });
});
