import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';
import { appOver, bookingTest, partnerBody } from './test-fixtures.ts';

/**
 * The property named in a body is looked up before anything else; when that lookup fails because the
 * database is unreachable, the partner must see a server failure (and retry), never "unknown property"
 * (which says: do not retry, fix your request). The database stays real: only the property lookup's
 * statement fails, the way postgres.js fails a statement on a lost connection.
 */
let send: ReturnType<typeof appOver>;

const { t, fx } = bookingTest();
beforeAll(async () => {
  const outage = interceptStatements(t.deps.db, (text) => {
    if (/^\s*select \* from properties\b/.test(text))
      throw Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
  });
  send = appOver(t, outage);
});

async function post(path: string, body: unknown) {
  const res = await send('POST', path, fx.token, body);
  return { status: res.status, body: (await res.json()) as { message: string } };
}

async function bookingCount() {
  const [row] = await t.deps.db.sql<{ n: number }>`
    select count(*)::int as n from bookings where property_id = ${fx.propertyId}`;
  return row?.n;
}

describe('a database failure during the property lookup', () => {
  it('is a 5xx on partner booking creation, not booking_create_failed unknown_property', async () => {
    const before = await bookingCount();
    const res = await post('/v1/qc/bookings', partnerBody(fx));
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.message).not.toBe('errors.qc.booking_create_failed');
    expect(await bookingCount()).toBe(before);
  });

  it('is a 5xx on the inbound webhook, not missing_property', async () => {
    const res = await post('/v1/qc/inbound/webhooks?channel=BDC', { external_property_id: fx.property });
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
      errorEnvelope('errors.qc.booking_create_failed', { reason: 'unknown_property' }),
    ]);
  });
});
