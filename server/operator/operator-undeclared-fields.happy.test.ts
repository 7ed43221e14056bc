import { describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';

/**
 * A body field an operator or dashboard operation does not declare was dropped without a word (a misspelled
 * `owns_propertes` left the default in place). As on the modern API (server/core/http/undeclared-fields.ts), the
 * write still answers as before and names each such field in `warnings` beside `data`.
 */
const t = testAppPerFile();
const fixture = perFile(() => customerFixture(t.deps));
const demo = perFile(() => t.demo());
const unknownField = (field: string) => ({ field, key: 'errors.qc.unknown_field' });

const createCustomer = (body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', '/ops/customers', { token: OPERATOR_TOKEN, body, headers });

describe('undeclared body fields on the operator surfaces', () => {
  it('names each undeclared field of an operator write in warnings, and writes what was declared', async () => {
    const name = `Warned ${crypto.randomUUID()}`;
    const res = await createCustomer({ name, owns_propertes: false, extra: { nested: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([unknownField('owns_propertes'), unknownField('extra')]);
    // The misspelled field changed nothing: the default stands.
    expect(res.body.data).toMatchObject({ name, owns_properties: true });
  });

  it('names a field nested in a declared object or array by its path', async () => {
    const property = (await demo).properties[0] as Demo['properties'][number];
    const plan = property.rate_plans.find(
      (p) => p.parent_rate_plan_id === null,
    ) as Demo['properties'][number]['rate_plans'][number];
    const res = await t.request('POST', '/ops/bookings', {
      token: OPERATOR_TOKEN,
      body: {
        property_id: property.id,
        channel: 'QDO',
        guest: { first_name: 'Ada', last_name: 'Nested', middle_name: 'B' },
        checkin_date: '2026-03-01',
        checkout_date: '2026-03-02',
        rooms: [{ room_type_id: plan.room_type_id, rate_plan_id: plan.id, adults: 2, smoking: false }],
        total_price: { amount: 100 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([unknownField('guest.middle_name'), unknownField('rooms.0.smoking')]);
    expect(res.body.data).toMatchObject({ guest_first_name: 'Ada', guest_last_name: 'Nested' });
  });

  it('adds no warnings member to an answer without undeclared fields, nor to a refusal', async () => {
    const clean = await createCustomer({ name: `Clean ${crypto.randomUUID()}` });
    expect(clean.status).toBe(200);
    expect(Object.keys(clean.body)).toEqual(['status', 'message', 'data']);
    const refused = await createCustomer({ nmae: 'typo' });
    expect(refused.status).toBe(422);
    expect(refused.body.warnings).toBeUndefined();
    expect(refused.body.errors).toEqual({ name: ['customer.request.messages.required'] });
  });

  it('replays the warnings with the first answer under the same Idempotency-Key', async () => {
    const key = crypto.randomUUID();
    const body = { name: `Keyed ${key}`, colour: 'red' };
    const first = await createCustomer(body, { 'idempotency-key': key });
    const again = await createCustomer(body, { 'idempotency-key': key });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.warnings).toEqual([unknownField('colour')]);
  });

  it('names them on the dashboard too', async () => {
    const { customerId } = await fixture;
    const res = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: await t.dashboardSession(customerId),
      body: { name: 'CI', scopes: ['bookings.read'], account_scoped: true, expires_in: 3600 },
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([unknownField('expires_in')]);
  });
});
