import { describe, expect, it } from 'bun:test';
import { appOver } from '../bookings/test-fixtures.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';
import { inventoryTest } from './test-fixtures.ts';

/**
 * The connection lost while a push's calendar statement runs (a terminated backend, a pooler restart, a failover):
 * the turn's transaction dies with it, so nothing was applied, and the partner must hear the outage (503
 * errors.service_unavailable with Retry-After, the key given back) and retry. It heard 500 internal_error for a
 * push, and for a per-plan rate write 200 with every row `write_failed`, an answer its key then replayed. The
 * database stays real: only the calendar statement fails, the way postgres.js fails a statement on a lost connection.
 */
const { t, f } = inventoryTest();
const FROM = '2026-07-01';

function sendLosing(table: 'availability' | 'rates') {
  let lose = true;
  const db = interceptStatements(t.deps.db, (text) => {
    if (lose && new RegExp(`^\\s*insert into ${table}\\b`).test(text)) {
      lose = false;
      throw Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
    }
  });
  const send = appOver(t, db);
  return async (path: string, key: string, body: unknown) => {
    const res = await send('POST', path, f.token, body, { 'idempotency-key': key });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
  };
}

describe('a lost connection during a push', () => {
  it('answers an availability push 503 service_unavailable, and its retry with the same key writes', async () => {
    const send = sendLosing('availability');
    const path = `/v1/qc/properties/${f.live.external_id}/inventory/availability`;
    const body = {
      values: [{ room_type_id: f.rooms.double.external_id, date_from: FROM, date_to: FROM, availability: 3 }],
    };
    const lost = await send(path, 'lost-availability', body);
    expect([lost.status, lost.retryAfter, lost.body]).toEqual([503, '2', errorEnvelope('errors.service_unavailable')]);
    const retry = await send(path, 'lost-availability', body);
    expect([retry.status, retry.body.data.written]).toEqual([202, 1]);
  });

  it('answers a per-plan rate write 503 service_unavailable, not rows write_failed its key would replay', async () => {
    const send = sendLosing('rates');
    const path = `/v1/qc/properties/${f.live.external_id}/rate_plans/${f.plans.room.external_id}/rates`;
    const body = { values: [{ date: FROM, room_type_id: f.rooms.double.external_id, prices: { ROOM: 90 } }] };
    const lost = await send(path, 'lost-plan-rates', body);
    expect([lost.status, lost.retryAfter, lost.body]).toEqual([503, '2', errorEnvelope('errors.service_unavailable')]);
    const retry = await send(path, 'lost-plan-rates', body);
    expect([retry.status, retry.body.data.errors, retry.body.data.written]).toEqual([200, [], 1]);
  });
});
