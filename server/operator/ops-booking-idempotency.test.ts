import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { type AppBehindRelay, startAppBehindRelay } from '../testing/app-behind-relay.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { OPERATOR_TOKEN, startTestApp, type TestApp } from '../testing/harness.ts';
import type { TcpProxy } from '../testing/tcp-proxy.ts';

/**
 * Issue 23: during backend terminations, 15 of 171 answers "503, the request was not applied" to POST
 * /ops/bookings had committed their booking, and the route took no Idempotency-Key, so a retry booked twice.
 * Here the intake takes a key kept with the booking, and a connection cut right after COMMIT was sent (a
 * relay passes the COMMIT to PostgreSQL and drops the client) answers `errors.qc.write_outcome_unknown`;
 * the retry with the same key finds the committed booking instead of making a second one.
 */
describe.skipIf(!process.env.DATABASE_URL)('POST /ops/bookings with an Idempotency-Key', () => {
  let t: TestApp;
  let demo: Demo;
  let proxy: TcpProxy;
  let relay: AppBehindRelay;
  let proxied: AppBehindRelay['app'];
  let pair: { room_type_id: number; rate_plan_id: number };

  beforeAll(async () => {
    t = await startTestApp();
    demo = await t.demo();
    const [row] = await t.deps.db.sql<{ room_type_id: number; rate_plan_id: number }>`
      select rr.room_type_id, rr.rate_plan_id from rate_plan_rooms rr join rate_plans p on p.id = rr.rate_plan_id
      join properties pr on pr.id = p.property_id
      where pr.external_id = ${live()} and p.parent_id is null and p.sell_type = 'per_room' limit 1`;
    if (!row) throw new Error('demo has no per-room plan');
    pair = row;
    relay = await startAppBehindRelay();
    ({ proxy, app: proxied } = relay);
  });
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  function live(): string {
    return (demo.properties[0] as unknown as { external_property_id: string }).external_property_id;
  }
  const booking = (lastName: string) => ({
    property_id: live(),
    channel: 'QDO',
    guest: { first_name: 'Ada', last_name: lastName, email: 'ada@example.com' },
    checkin_date: '2026-03-01',
    checkout_date: '2026-03-02',
    rooms: [{ room_type_id: pair.room_type_id, rate_plan_id: pair.rate_plan_id, adults: 2 }],
    total_price: { amount: 100 },
  });
  async function post(app: AppBehindRelay['app'], body: unknown, key?: string) {
    const res = await app.handle(
      new Request('http://localhost/ops/bookings', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${OPERATOR_TOKEN}`,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  const stored = async (lastName: string) =>
    (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from bookings where guest_last_name = ${lastName}`)[0]
      ?.n;

  it('answers the same booking to a retry with the same key and body, and 409 to another body', async () => {
    const key = crypto.randomUUID();
    const name = `Key-${key}`;
    const first = await post(t.app, booking(name), key);
    expect(first.status).toBe(200);
    const again = await post(t.app, booking(name), key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.revision_id).toBe(first.body.data.revision_id);
    expect(await stored(name)).toBe(1);
    const other = await post(t.app, booking(`${name}-other`), key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual(errorEnvelope('errors.qc.idempotency_conflict'));
    expect(await stored(`${name}-other`)).toBe(0);
  });

  it('says the outcome is unknown when the connection dies during COMMIT, and the retry finds the committed booking', async () => {
    const key = crypto.randomUUID();
    const name = `Cut-${key}`;
    proxy.cutWhen = Buffer.from('commit');
    const cut = await post(proxied, booking(name), key);
    proxy.cutWhen = undefined;
    expect(cut.status).toBe(503);
    expect(cut.body).toEqual(errorEnvelope('errors.qc.write_outcome_unknown'));
    expect(Number(cut.headers.get('retry-after'))).toBeGreaterThan(0);
    // PostgreSQL got the COMMIT: the booking exists although the answer could not say so (the answer may come
    // before PostgreSQL has read the relayed COMMIT, hence the wait).
    for (let i = 0; i < 100 && (await stored(name)) === 0; i++) await Bun.sleep(20);
    expect(await stored(name)).toBe(1);
    const retry = await post(proxied, booking(name), key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await stored(name)).toBe(1);
  });

  it('refuses a key longer than 128 characters with 422', async () => {
    const res = await post(t.app, booking('TooLong'), 'k'.repeat(129));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ idempotency_key: ['customer.booking.messages.max_length'] });
  });
});
