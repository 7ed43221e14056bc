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

/** qc_idempotency_replays_total as GET /metrics serves it (the counter is per process, and tests run in one). */
async function replaysCounted(app: TestApp): Promise<number> {
  const text = (await app.request('GET', '/metrics', { token: OPERATOR_TOKEN })).text;
  return Number(/^qc_idempotency_replays_total (\d+)$/m.exec(text)?.[1]);
}

describe('qc_idempotency_replays_total on the operator API', () => {
  let t: TestApp;
  let elsewhere: TestApp;
  let demo: Demo;
  beforeAll(async () => {
    t = await startTestApp();
    // Its own idempotency store (memory, or its own Redis prefix) on the same database: as after a lost record.
    elsewhere = await startTestApp();
    demo = await t.demo();
  });
  afterAll(async () => {
    await elsewhere.close();
    await t.close();
  });

  const keyed = (app: TestApp, path: string, body: unknown, key: string) =>
    app.request('POST', path, { token: OPERATOR_TOKEN, headers: { 'idempotency-key': key }, body });

  it('counts a replay from the idempotency store once, and neither the first answer nor a 409', async () => {
    const key = crypto.randomUUID();
    const before = await replaysCounted(t);
    expect((await keyed(t, '/ops/customers', { name: `Counted ${key}` }, key)).status).toBe(200);
    expect(await replaysCounted(t)).toBe(before);
    const again = await keyed(t, '/ops/customers', { name: `Counted ${key}` }, key);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await replaysCounted(t)).toBe(before + 1);
    expect((await keyed(t, '/ops/customers', { name: `Other ${key}` }, key)).status).toBe(409);
    expect(await replaysCounted(t)).toBe(before + 1);
  });

  it('counts a replay of what a create kept with its key, when the store never saw the key', async () => {
    const key = crypto.randomUUID();
    expect((await keyed(t, '/ops/customers', { name: `Kept ${key}` }, key)).status).toBe(200);
    const before = await replaysCounted(t);
    const replayed = await keyed(elsewhere, '/ops/customers', { name: `Kept ${key}` }, key);
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');
    expect(await replaysCounted(t)).toBe(before + 1);
  });

  it('counts a replay of the booking intake, whose key is kept with the booking', async () => {
    const property = demo.properties[0] as Demo['properties'][number];
    const plan = property.rate_plans.find(
      (p) => p.parent_rate_plan_id === null,
    ) as Demo['properties'][number]['rate_plans'][number];
    const booking = {
      property_id: property.id,
      channel: 'QDO',
      guest: { first_name: 'Ada', last_name: `Counted-${crypto.randomUUID()}` },
      checkin_date: '2026-03-01',
      checkout_date: '2026-03-02',
      rooms: [{ room_type_id: plan.room_type_id, rate_plan_id: plan.id, adults: 2 }],
      total_price: { amount: 100 },
    };
    const key = crypto.randomUUID();
    expect((await keyed(t, '/ops/bookings', booking, key)).status).toBe(200);
    const before = await replaysCounted(t);
    const again = await keyed(t, '/ops/bookings', booking, key);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await replaysCounted(t)).toBe(before + 1);
  });
});
