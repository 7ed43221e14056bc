import { describe, expect, it } from 'bun:test';
import { OPERATOR_TOKEN, testAppPerFile } from '../testing/harness.ts';

/**
 * The operator and dashboard surfaces check a JSON body as sent, as the modern API does (server/core/http/
 * json-body.ts): Elysia's own validation reads a reshaped body, so `"hello"` answered "name required" and a
 * `__proto__` member lent its fields to the body.
 */
const t = testAppPerFile();
const createCustomer = (raw: string) => t.request('POST', '/ops/customers', { token: OPERATOR_TOKEN, raw });
const customerCount = async () =>
  (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from customers`)[0]?.n ?? 0;

describe('operator bodies', () => {
  it('refuses a JSON body that is not an object with 422 body: object, and creates nothing', async () => {
    const before = await customerCount();
    for (const raw of ['"hello"', '42', '[]', 'true']) {
      const res = await createCustomer(raw);
      expect([raw, res.status, res.body.errors]).toEqual([raw, 422, { body: ['customer.request.messages.object'] }]);
    }
    expect(await customerCount()).toBe(before);
  });

  it('takes no field from a __proto__ member: a create still needs its own name', async () => {
    const customer = await createCustomer('{"name":"Inn group"}');
    expect(customer.status).toBe(200);
    const properties = async () =>
      (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from properties`)[0]?.n ?? 0;
    const before = await properties();
    const res = await t.request('POST', '/ops/properties', {
      token: OPERATOR_TOKEN,
      raw: JSON.stringify({
        customer_id: customer.body.data.id,
        currency: 'EUR',
        timezone: 'Europe/Lisbon',
        type_id: 1,
      }).replace('{', '{"__proto__":{"name":"polluted"},'),
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
    expect(await properties()).toBe(before);
  });

  it('refuses a NUL or a lone surrogate on its field with invalid_characters, and stores nothing', async () => {
    const before = await customerCount();
    for (const raw of ['{"name":"a\\u0000b"}', '{"name":"a\\udc00b"}']) {
      const res = await createCustomer(raw);
      expect([raw, res.status, res.body.errors]).toEqual([
        raw,
        422,
        { name: ['customer.request.messages.invalid_characters'] },
      ]);
    }
    expect(await customerCount()).toBe(before);
  });
});
