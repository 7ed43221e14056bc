import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { idempotencyReplays } from '../core/metrics.ts';
import { type AppBehindRelay, startAppBehindRelay } from '../testing/app-behind-relay.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import type { TcpProxy } from '../testing/tcp-proxy.ts';
import { type BookingFixture, bookingFixture, partnerBody, pushFree } from './test-fixtures.ts';

/**
 * Issue 23, the fault suite's doubled partner booking: POST /v1/qc/bookings kept its Idempotency-Key only in the
 * request-level store, which gives the key back on a 5xx. When the connection died during COMMIT (answer 503
 * `errors.qc.write_outcome_unknown`, booking committed) the retry with the same key booked a second time. The key
 * is now also kept with the booking, in its transaction, so the retry finds the booking the first call made.
 * A relay passes the COMMIT to PostgreSQL and drops the client, as a terminated backend or a failover does.
 */
describe.skipIf(!process.env.DATABASE_URL)('POST /v1/qc/bookings when the connection dies during COMMIT', () => {
  let t: TestApp;
  let fx: BookingFixture;
  let proxy: TcpProxy;
  let relay: AppBehindRelay;
  let proxied: AppBehindRelay['app'];

  beforeAll(async () => {
    t = await startTestApp();
    fx = await bookingFixture(t);
    await pushFree(t, fx, 0, '2027-03-01', '2027-03-31', 9);
    relay = await startAppBehindRelay({ redis: true });
    ({ proxy, app: proxied } = relay);
  });
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  async function post(body: unknown, key: string, path = '/v1/qc/bookings') {
    const res = await proxied.handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      }),
    );
    const answer = { status: res.status, headers: res.headers, body: (await res.json()) as any };
    return answer;
  }
  /** qc_idempotency_replays_total of this process, which serves the relayed app too. */
  const replaysCounted = async () => (await idempotencyReplays.get()).values[0]?.value ?? 0;
  const stored = async (lastName: string) =>
    (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from bookings where guest_last_name = ${lastName}`)[0]
      ?.n ?? 0;
  async function cutDuringCommit(body: unknown, key: string, path?: string) {
    proxy.cutWhen = Buffer.from('commit');
    try {
      return await post(body, key, path);
    } finally {
      proxy.cutWhen = undefined;
    }
  }

  for (const [route, path] of [
    ['POST /bookings', '/v1/qc/bookings'],
    ['POST /b2b/bookings', '/v1/qc/b2b/bookings'],
  ] as const) {
    it(`${route}: the retry with the same key and body answers the committed booking (201, replayed) and books nothing more`, async () => {
      const key = crypto.randomUUID();
      const name = `Cut-${key}`;
      const body = partnerBody(fx, {
        guest: { first_name: 'Pia', last_name: name },
        checkin_date: '2027-03-05',
        checkout_date: '2027-03-06',
        ...(path.includes('b2b') ? { agency: { name: 'Fjord Travel' } } : {}),
      });
      const cut = await cutDuringCommit(body, key, path);
      expect(cut.status).toBe(503);
      expect(cut.body).toEqual(errorEnvelope('errors.qc.write_outcome_unknown'));
      // PostgreSQL got the COMMIT: the booking exists although the answer could not say so (the answer may come
      // before PostgreSQL has read the relayed COMMIT, hence the wait).
      for (let i = 0; i < 100 && (await stored(name)) === 0; i++) await Bun.sleep(20);
      expect(await stored(name)).toBe(1);

      const replaysBefore = await replaysCounted();
      const retry = await post(body, key, path);
      expect(retry.status).toBe(201);
      // Answered from the key kept with the booking: a replay, counted as the store's replays are.
      expect(await replaysCounted()).toBe(replaysBefore + 1);
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect(Number.isNaN(Date.parse(retry.headers.get('idempotency-original-timestamp') ?? ''))).toBe(false);
      expect(retry.body.data.guest_last_name).toBeDefined();
      expect(await stored(name)).toBe(1);
      // Stored by the request-level store too: the next retry is its replay, still one booking.
      const again = await post(body, key, path);
      expect([again.status, again.body.data.inbound_booking_id]).toEqual([201, retry.body.data.inbound_booking_id]);
      expect(await stored(name)).toBe(1);
      expect(await replaysCounted()).toBe(replaysBefore + 2);
    });
  }

  it('another body under a key whose booking committed is 409 idempotency_conflict, and books nothing', async () => {
    const key = crypto.randomUUID();
    const name = `Other-${key}`;
    const body = partnerBody(fx, {
      guest: { first_name: 'Pia', last_name: name },
      checkin_date: '2027-03-07',
      checkout_date: '2027-03-08',
    });
    const cut = await cutDuringCommit(body, key);
    expect(cut.status).toBe(503);
    for (let i = 0; i < 100 && (await stored(name)) === 0; i++) await Bun.sleep(20);
    const other = await post({ ...body, guest: { first_name: 'Pia', last_name: `${name}-2` } }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual(errorEnvelope('errors.qc.idempotency_conflict'));
    expect([await stored(name), await stored(`${name}-2`)]).toEqual([1, 0]);
  });

  it('the same key from another caller is its own key: it books', async () => {
    const key = crypto.randomUUID();
    const name = `Mine-${key}`;
    const body = partnerBody(fx, {
      guest: { first_name: 'Pia', last_name: name },
      checkin_date: '2027-03-09',
      checkout_date: '2027-03-10',
    });
    const cut = await cutDuringCommit(body, key);
    expect(cut.status).toBe(503);
    for (let i = 0; i < 100 && (await stored(name)) === 0; i++) await Bun.sleep(20);
    const client = await t.client({
      customer_id: fx.demo.customer_id,
      scopes: ['bookings.write', 'bookings.read'],
      property_ids: [fx.property],
    });
    const res = await t.request('POST', '/v1/qc/bookings', {
      token: client.token,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotency-replayed')).toBeNull();
    expect(await stored(name)).toBe(2);
  });
});
