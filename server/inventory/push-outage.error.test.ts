import { describe, expect, it } from 'bun:test';
import postgres from 'postgres';
import { PropertyActors } from '../../actors/property-actors.ts';
import { buildApp } from '../app.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { EMBEDDED, OPERATOR_TOKEN } from '../testing/harness.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';
import { addRoomType, calendarSnapshot, inventoryTest } from './test-fixtures.ts';

/**
 * The database lost in the middle of a push: the calendar statement fails the way postgres.js fails a
 * statement on a lost connection. The push was not applied, so the partner must hear 503
 * errors.service_unavailable with Retry-After (retry the same push), never a 500 (our bug, do not retry) nor a
 * 200 whose rows say write_failed (kept under the Idempotency-Key, so the retry would replay the failure).
 */
const { t, f } = inventoryTest();
const days = { date_from: '2026-07-01', date_to: '2026-07-02' };

/** The app over the same database, whose calendar writes (the upserts into the three tables) lose the connection. */
function appLosingCalendarWrites() {
  const db = interceptStatements(t.deps.db, (text) => {
    if (/^\s*insert into (availability|rates|restrictions) as /.test(text))
      throw Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
  });
  const app = buildApp({ ...t.deps, db, actors: new PropertyActors(db) }, { operatorToken: OPERATOR_TOKEN });
  return async (path: string, values: unknown[], headers: Record<string, string> = {}) => {
    const res = await app.handle(
      new Request(`http://localhost/v1/qc/properties/${f.live.external_id}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ values }),
      }),
    );
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
}

describe('a push whose calendar write loses the database', () => {
  it('answers 503 service_unavailable with Retry-After on each push, writing nothing', async () => {
    const send = appLosingCalendarWrites();
    const pair = { room_type_id: f.rooms.double.external_id, rate_plan_id: f.plans.room.external_id };
    const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
    for (const [path, row] of [
      ['/inventory/availability', { room_type_id: f.rooms.double.external_id, ...days, availability: 2 }],
      ['/inventory/rates', { ...pair, ...days, rate: 99 }],
      ['/inventory/restrictions', { ...pair, ...days, stop_sell: true }],
    ] as const) {
      const res = await send(path, [row]);
      expect([path, res.status, res.body]).toEqual([path, 503, errorEnvelope('errors.service_unavailable')]);
      expect(res.headers.get('retry-after')).toBe('2');
    }
    expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  });

  it('answers the per-plan rate write 503 as well, so a keyed retry runs again instead of replaying write_failed', async () => {
    const send = appLosingCalendarWrites();
    const values = [{ date: '2026-07-01', prices: { ROOM: 80 } }];
    const path = `/rate_plans/${f.plans.room.external_id}/rates`;
    const res = await send(path, values, { 'idempotency-key': 'plan-rates-outage' });
    expect([res.status, res.body]).toEqual([503, errorEnvelope('errors.service_unavailable')]);
    // The key was given back: the same keyed push on a healthy database writes.
    const retry = await t.request('POST', `/v1/qc/properties/${f.live.external_id}${path}`, {
      token: f.token,
      body: { values },
      headers: { 'idempotency-key': 'plan-rates-outage' },
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(retry.body.data).toMatchObject({ written: 2, errors: [] });
  });

  // A real connection: the push waits on a row lock another session holds, and its statement is cancelled (as a
  // statement timeout or an operator does: the connection survives) or its backend terminated (as a failover
  // does). Not on the embedded database (one connection, no other session).
  for (const stop of ['pg_cancel_backend', 'pg_terminate_backend'] as const) {
    it.skipIf(EMBEDDED)(`answers 503 when ${stop} stops its write mid-way, writing nothing`, async () => {
      const room = await addRoomType(t.deps.db, f.live.id);
      const push = (availability: number) =>
        t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/availability`, {
          token: f.token,
          body: { values: [{ room_type_id: room.external_id, ...days, availability }] },
        });
      expect((await push(1)).status).toBe(202);
      const admin = postgres(process.env.DATABASE_URL as string, { max: 1, onnotice: () => {} });
      try {
        const answer = await admin.begin(async (sql) => {
          await sql`select 1 from availability where room_type_id = ${room.id} for update`;
          const pending = push(2);
          let pid: number | undefined;
          for (let i = 0; i < 400 && pid === undefined; i++) {
            const [waiting] = await sql<{ pid: number }[]>`
              select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))`;
            pid = waiting?.pid;
            if (pid === undefined) await Bun.sleep(25);
          }
          if (pid === undefined) throw new Error('the push never waited on the lock');
          await sql`select ${sql(stop)}(${pid})`;
          return pending;
        });
        expect([answer.status, answer.body]).toEqual([503, errorEnvelope('errors.service_unavailable')]);
        const stored = await t.deps.db.sql<{ offered: number }>`
          select offered from availability where room_type_id = ${room.id} order by date`;
        expect(stored.map((s) => s.offered)).toEqual([1, 1]);
      } finally {
        await admin.end({ timeout: 1 });
      }
    });
  }
});
