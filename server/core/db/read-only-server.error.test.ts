import { afterAll, describe, expect, it } from 'bun:test';
import { appOver } from '../../bookings/test-fixtures.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { OPERATOR_TOKEN, testAppPerFile } from '../../testing/harness.ts';
import { openPostgres } from './postgres.ts';

/**
 * A write that reaches a server taking no writes: a hot standby, which a failover leaves a pooler (PgBouncer 1.18
 * round-robins a host list) or a stale connection pointing at until it is promoted or retargeted. PostgreSQL refuses
 * the statement (SQLSTATE 25006), so nothing was applied: the client is told to retry (503 service_unavailable,
 * Retry-After), as for any other database out of reach, instead of a 500 that reads as a bug of ours. Real refusals:
 * every connection of this pool starts with default_transaction_read_only on.
 */
const url = process.env.DATABASE_URL;
const t = testAppPerFile();

describe.skipIf(!url)('a write on a server that takes no writes', () => {
  const readOnly = openPostgres(`${url}${url?.includes('?') ? '&' : '?'}default_transaction_read_only=on`, {
    max: 2,
    sessionUrl: process.env.DATABASE_SESSION_URL,
  });
  afterAll(() => readOnly.close());

  it('answers 503 service_unavailable with Retry-After, and wrote nothing', async () => {
    const name = `read-only-${crypto.randomUUID()}`;
    const res = await appOver(t, readOnly)('POST', '/ops/customers', OPERATOR_TOKEN, { name });
    expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([
      503,
      '2',
      errorEnvelope('errors.service_unavailable'),
    ]);
    const [row] = await t.deps.db.sql<{ n: number }>`select count(*)::int as n from customers where name = ${name}`;
    expect(row?.n).toBe(0);
  });

  it('answers a calendar push the same, not a 500 for its batch', async () => {
    const demo = await t.demo();
    const live = demo.properties.find((p) => p.mode === 'live');
    const room = live?.room_types[0]?.id;
    // A stay day inside the accepted window, so the calendar statement itself is what the server refuses.
    const day = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const res = await appOver(t, readOnly)(
      'POST',
      `/v1/qc/properties/${live?.external_property_id}/inventory/availability`,
      demo.personal_token,
      {
        values: [{ room_type_id: room, date_from: day, date_to: day, availability: 1 }],
      },
    );
    expect([res.status, await res.json()]).toEqual([503, errorEnvelope('errors.service_unavailable')]);
  });
});
