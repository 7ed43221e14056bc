import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';

/**
 * Ids an operator sends that name nothing, or another customer's row: a refusal naming the field, never a 500 and
 * never a row of one customer tied to another's.
 */
const t = testAppPerFile();
const UNKNOWN = 2_000_000_000;
/** `POST /ops/properties` for a customer, with anything else the case adds (a group, another customer_id). */
const createProperty = (customerId: number, name: string, extra: Record<string, unknown> = {}) =>
  t.ops('POST', '/ops/properties', {
    customer_id: customerId,
    name,
    currency: 'EUR',
    timezone: 'Europe/Lisbon',
    ...extra,
  });
const count = async (table: 'properties' | 'property_groups' | 'api_clients') =>
  (await t.deps.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n ?? 0;

describe('operator references', () => {
  it("refuses a property in another customer's group (422 group_id in): that customer's pause would hide it", async () => {
    const owner = await t.ops('POST', '/ops/customers', { name: 'Group owner' });
    const other = await t.ops('POST', '/ops/customers', { name: 'Other customer' });
    const group = await t.ops('POST', '/ops/property-groups', { customer_id: owner.body.data.id, name: 'Coast' });
    expect(group.status).toBe(200);
    const before = await count('properties');
    const groupId = group.body.data.id;
    const res = await createProperty(other.body.data.id, 'Intruder', { group_id: groupId });
    expect([res.status, res.body.errors]).toEqual([422, { group_id: ['customer.request.messages.in'] }]);
    expect(await count('properties')).toBe(before);
    const own = await createProperty(owner.body.data.id, 'Member', { group_id: groupId });
    expect(own.status).toBe(200);
  });

  it('answers an unknown customer_id or group_id with 422 in on that field, and writes nothing', async () => {
    const before = { properties: await count('properties'), groups: await count('property_groups') };
    const group = await t.ops('POST', '/ops/property-groups', { customer_id: UNKNOWN, name: 'Nowhere' });
    expect([group.status, group.body.errors]).toEqual([422, { customer_id: ['customer.request.messages.in'] }]);
    const property = await createProperty(UNKNOWN, 'Nowhere Inn');
    expect([property.status, property.body.errors]).toEqual([422, { customer_id: ['customer.request.messages.in'] }]);
    const customer = await t.ops('POST', '/ops/customers', { name: 'Real' });
    const grouped = await createProperty(customer.body.data.id, 'Real Inn', { group_id: UNKNOWN });
    expect([grouped.status, grouped.body.errors]).toEqual([422, { group_id: ['customer.request.messages.in'] }]);
    expect({ properties: await count('properties'), groups: await count('property_groups') }).toEqual(before);
  });

  it('mints no dashboard session for a customer that does not exist (404)', async () => {
    const res = await t.ops('POST', `/ops/customers/${UNKNOWN}/dashboard-token`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('errors.not_found');
  });
});
