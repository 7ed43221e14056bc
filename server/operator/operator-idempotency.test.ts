import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { OPERATOR_TOKEN, startTestApp, type TestApp } from '../testing/harness.ts';

/**
 * Issue 23: every write route that creates something honours an Idempotency-Key, the operator API's included.
 * A retried POST /ops/properties with the same key and body answers the first property and creates no second.
 */
describe('Idempotency-Key on the operator API', () => {
  let t: TestApp;
  let demo: Demo;
  beforeAll(async () => {
    t = await startTestApp();
    demo = await t.demo();
  });
  afterAll(() => t.close());

  const create = (name: string, key: string) =>
    t.request('POST', '/ops/properties', {
      token: OPERATOR_TOKEN,
      headers: { 'idempotency-key': key },
      body: { customer_id: demo.customer_id, name, currency: 'EUR', timezone: 'Europe/Berlin' },
    });
  const stored = async (name: string) =>
    (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from properties where name = ${name}`)[0]?.n;

  it('answers a retried create with the first answer and creates nothing more; another body is 409', async () => {
    const key = crypto.randomUUID();
    const name = `Keyed ${key}`;
    const first = await create(name, key);
    expect(first.status).toBe(200);
    const again = await create(name, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stored(name)).toBe(1);
    const other = await create(`${name} other`, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual(errorEnvelope('errors.qc.idempotency_conflict'));
    expect(await stored(`${name} other`)).toBe(0);
    // Without a key, the same body creates again (the operator asked twice).
    const unkeyed = await t.request('POST', '/ops/properties', {
      token: OPERATOR_TOKEN,
      body: { customer_id: demo.customer_id, name, currency: 'EUR', timezone: 'Europe/Berlin' },
    });
    expect(unkeyed.status).toBe(200);
    expect(await stored(name)).toBe(2);
  });
});
