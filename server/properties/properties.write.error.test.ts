import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Inn',
  type_id: 1,
  currency: 'EUR',
  timezone: 'Europe/Lisbon',
  partner_code: 'INN',
  ...over,
});

describe('POST /properties refusals', () => {
  it('refuses a partner that does not own properties with 403 property_creation_not_allowed', async () => {
    const customer = await t.ops<{ data: { id: number } }>('POST', '/ops/customers', {
      name: 'Channel manager',
      owns_properties: false,
    });
    const { token } = await t.client({
      customer_id: customer.body.data.id,
      scopes: ['properties.manage'],
      account_scoped: true,
    });
    const res = await t.request('POST', '/v1/qc/properties', { token, body: body() });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('errors.qc.property_creation_not_allowed');
    const [count] = await t.deps.db.sql<{
      n: number;
    }>`select count(*)::int as n from properties where customer_id = ${customer.body.data.id}`;
    expect(count?.n).toBe(0);
  });

  it("refuses a partner code already used in the customer's group with 409", async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      body: body({ partner_code: demo.properties[0]?.partner_code }),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.partner_code_taken');
  });

  it('allows a code another customer uses', async () => {
    const other = await t.demo();
    const res = await t.request('POST', '/v1/qc/properties', {
      token: other.personal_token,
      body: body({ partner_code: demo.properties[0]?.partner_code }),
    });
    expect(res.status).toBe(201);
  });

  it('validates type_id against the dictionary, the timezone, the currency and required fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body({ type_id: 999 }), 'type_id'],
      [body({ timezone: 'Mars/Olympus' }), 'timezone'],
      [body({ currency: 'euro' }), 'currency'],
      [{ name: 'No code', type_id: 1, currency: 'EUR', timezone: 'UTC' }, 'partner_code'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.request('POST', '/v1/qc/properties', { token: demo.personal_token, body: payload });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('errors.validation_error');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    const typed = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      body: body({ type_id: 999 }),
    });
    expect(typed.body.errors).toEqual({ type_id: ['customer.property.messages.in'] });
  });

  it('refuses a UTC offset, a zone in another letter case and an unknown currency with rule in', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [body({ timezone: '+02:00' }), { timezone: ['customer.property.messages.in'] }],
      [body({ timezone: '-0500' }), { timezone: ['customer.property.messages.in'] }],
      [body({ timezone: 'europe/berlin' }), { timezone: ['customer.property.messages.in'] }],
      [body({ currency: 'XYZ' }), { currency: ['customer.property.messages.in'] }],
      [body({ currency: 'XXX' }), { currency: ['customer.property.messages.in'] }],
      [
        body({ type_id: 999, currency: 'XYZ', timezone: '+02:00' }),
        {
          type_id: ['customer.property.messages.in'],
          currency: ['customer.property.messages.in'],
          timezone: ['customer.property.messages.in'],
        },
      ],
    ];
    for (const [payload, errors] of cases) {
      const res = await t.request('POST', '/v1/qc/properties', { token: demo.personal_token, body: payload });
      expect([res.status, res.body.errors]).toEqual([422, errors]);
    }
    const [stored] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from properties
      where customer_id = ${demo.customer_id} and (timezone in ('+02:00', '-0500', 'europe/berlin') or currency = 'XYZ')`;
    expect(stored?.n).toBe(0);
  });

  it('refuses the same on the operator API', async () => {
    const create = (over: Record<string, string>) =>
      t.ops('POST', '/ops/properties', {
        customer_id: demo.customer_id,
        name: 'Ops Inn',
        currency: 'EUR',
        timezone: 'Europe/Lisbon',
        ...over,
      });
    const offset = await create({ timezone: '+02:00' });
    expect([offset.status, offset.body.errors]).toEqual([422, { timezone: ['customer.property.messages.in'] }]);
    const currency = await create({ currency: 'XYZ' });
    expect([currency.status, currency.body.errors]).toEqual([422, { currency: ['customer.property.messages.in'] }]);
  });

  it('needs properties.manage', async () => {
    const { token } = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      account_scoped: true,
    });
    const res = await t.request('POST', '/v1/qc/properties', { token, body: body() });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('errors.qc.insufficient_scope');
  });
});

describe('PATCH /properties refusals', () => {
  it('refuses a partner code another property of the customer uses', async () => {
    const res = await t.request('PATCH', `/v1/qc/properties/${demo.properties[1]?.id}`, {
      token: demo.personal_token,
      body: { partner_code: demo.properties[0]?.partner_code },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('errors.qc.partner_code_taken');
  });

  it('answers 404 for a property outside the token allow-list', async () => {
    const other = await t.demo();
    const res = await t.request('PATCH', `/v1/qc/properties/${other.properties[0]?.id}`, {
      token: demo.personal_token,
      body: { partner_name: 'x' },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('errors.not_found');
  });
});
