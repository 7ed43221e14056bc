import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { buildApp } from '../app.ts';
import { createDeps } from '../boot.ts';
import { ManualClock } from '../core/clock.ts';
import { parseConfig } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import { openPostgres } from '../core/db/postgres.ts';
import { createLog } from '../core/log.ts';
import { OPERATOR_TOKEN, startTestApp, TEST_KEY_ENCRYPTION_KEY, type TestApp } from '../testing/harness.ts';
import { addRoomType, type InventoryFixture, inventoryFixture, type Ref } from './test-fixtures.ts';

/**
 * Two service instances on one database, as two server processes would be: each with its own connection
 * pool and its own actors, so only the per-property advisory lock can keep their writes to one property in
 * one order. A push's diff (written vs unchanged) is only right if no other push ran in between.
 */
let t: TestApp;
let f: InventoryFixture;
let otherDb: Db;
let other: ReturnType<typeof buildApp>;

async function pushVia(instance: 'first' | 'second', room: Ref, availability: number) {
  const request = new Request(`http://localhost/v1/qc/properties/${f.live.external_id}/inventory/availability`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      values: [{ room_type_id: room.external_id, date_from: '2026-07-01', date_to: '2026-07-30', availability }],
    }),
  });
  const res = instance === 'first' ? await t.app.handle(request) : await other.handle(request);
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: { written: number; unchanged: number } }).data;
}

// Needs a PostgreSQL server a second pool can connect to (not the embedded backend).
describe.skipIf(!process.env.DATABASE_URL)('two service instances writing the same days', () => {
  beforeAll(async () => {
    const clock = new ManualClock('2026-06-15T12:00:00Z');
    t = await startTestApp({ clock });
    f = await inventoryFixture(t);
    const url = process.env.DATABASE_URL as string;
    otherDb = openPostgres(url, { max: 4, sessionUrl: process.env.DATABASE_SESSION_URL });
    const config = parseConfig({
      QC_LOG_LEVEL: 'silent',
      QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      DATABASE_URL: url,
      DATABASE_SESSION_URL: process.env.DATABASE_SESSION_URL,
      QC_DEMO_ON_EMPTY: '0',
    });
    const deps = await createDeps(config, { db: otherDb, clock, log: createLog('silent'), enforceRateLimits: false });
    other = buildApp(deps, { operatorToken: OPERATOR_TOKEN });
  });

  afterAll(async () => {
    await otherDb.close();
    await t.close();
  });

  it('apply one push at a time: of ten identical pushes exactly one writes, the others find it unchanged', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => pushVia(i % 2 === 0 ? 'first' : 'second', room, 4)),
    );
    expect(results.filter((r) => r.written === 30 && r.unchanged === 0)).toHaveLength(1);
    expect(results.filter((r) => r.written === 0 && r.unchanged === 30)).toHaveLength(9);
  });

  it('leave every day from the same last push, with counters that add up to a serial order', async () => {
    const room = await addRoomType(t.deps.db, f.live.id);
    const values = [1, 2, 2, 3, 1, 3, 2, 2];
    const results = await Promise.all(values.map((v, i) => pushVia(i % 2 === 0 ? 'first' : 'second', room, v)));
    const stored = await t.deps.db.sql<{ offered: number }>`
      select distinct offered from availability where room_type_id = ${room.id}`;
    expect(stored).toHaveLength(1);
    for (const r of results) {
      expect(r.written + r.unchanged).toBe(30);
      expect([0, 30]).toContain(r.written);
    }
    // Serially, each push either changes all thirty days or none, and the first one always writes.
    expect(results.some((r) => r.written === 30)).toBe(true);
  });
});
