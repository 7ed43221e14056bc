import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { buildApp } from '../app.ts';
import type { Db } from '../core/db/db.ts';
import { OPERATOR_TOKEN, type TestApp } from '../testing/harness.ts';
import { type BookingFixture, partnerBody, startBookingTest } from './test-fixtures.ts';

/**
 * The property named in a body is looked up before anything else; when that lookup fails because the
 * database is unreachable, the partner must see a server failure (and retry), never "unknown property"
 * (which says: do not retry, fix your request). The database stays real: only the property lookup's
 * statement fails, the way postgres.js fails a statement on a lost connection.
 */
function failingPropertyLookups(db: Db): Db {
  const lost = () => Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
  const isLookup = (text: string) => /^\s*select \* from properties\b/.test(text);
  const wrap = (inner: Db): Db => ({
    kind: inner.kind,
    sql: ((strings: TemplateStringsArray, ...values: unknown[]) =>
      isLookup(strings.join('$')) ? Promise.reject(lost()) : inner.sql(strings, ...values)) as Db['sql'],
    query: ((text: string, params?: unknown[]) =>
      isLookup(text) ? Promise.reject(lost()) : inner.query(text, params)) as Db['query'],
    tx: (fn) => inner.tx((tx) => fn(wrap(tx))),
    savepoint: (fn) => inner.savepoint((tx) => fn(wrap(tx))),
    close: () => inner.close(),
  });
  return wrap(db);
}

let t: TestApp;
let fx: BookingFixture;
let outage: ReturnType<typeof buildApp>;

beforeAll(async () => {
  ({ t, fx } = await startBookingTest());
  outage = buildApp({ ...t.deps, db: failingPropertyLookups(t.deps.db) }, { operatorToken: OPERATOR_TOKEN });
});
afterAll(() => t.close());

async function send(path: string, body: unknown) {
  const res = await outage.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as { message: string } };
}

async function bookingCount() {
  const [row] = await t.deps.db.sql<{
    n: number;
  }>`select count(*)::int as n from bookings where property_id = ${fx.propertyId}`;
  return row?.n;
}

describe('a database failure during the property lookup', () => {
  it('is a 5xx on partner booking creation, not booking_create_failed unknown_property', async () => {
    const before = await bookingCount();
    const res = await send('/v1/qc/bookings', partnerBody(fx));
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.message).not.toBe('errors.qc.booking_create_failed');
    expect(await bookingCount()).toBe(before);
  });

  it('is a 5xx on the inbound webhook, not missing_property', async () => {
    const res = await send('/v1/qc/inbound/webhooks?channel=BDC', { external_property_id: fx.property });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.message).not.toBe('errors.qc.webhook.missing_property');
  });

  it('still answers a property the token may not act on as the refusal it is (the lookup itself works)', async () => {
    const res = await t.request('POST', '/v1/qc/bookings', {
      token: fx.token,
      body: partnerBody(fx, { property_id: 'NO-SUCH-PROPERTY' }),
    });
    expect([res.status, res.body]).toEqual([
      422,
      { status: 'error', message: 'errors.qc.booking_create_failed', reason: 'unknown_property' },
    ]);
  });
});
