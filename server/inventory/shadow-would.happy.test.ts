import { describe, expect, it } from 'bun:test';
import { calendarSnapshot, inventoryTest } from './test-fixtures.ts';

/**
 * A push to a shadow property is a dry run against the real calendar: `would` is exactly what the same push
 * writes once the property is live (the clock stands at 2026-06-15, so the window starts 2026-06-14 and the
 * first days below are skipped). Each step runs the push on shadow, flips the property live, runs it again
 * and compares, so a later step's `would` also counts the day-rows an earlier one left unchanged.
 */

const { t, f } = inventoryTest();

const setMode = (mode: 'live' | 'shadow') => t.ops('PUT', `/ops/properties/${f.shadow.external_id}/mode`, { mode });
const post = (path: string, values: unknown[]) =>
  t.request('POST', `/v1/qc/properties/${f.shadow.external_id}/${path}`, { token: f.token, body: { values } });

/** Advisory locks still held on the property's calendar (namespace 7210 of actors/property-actors.ts). */
async function calendarLocks(): Promise<number> {
  const [row] = await t.deps.db.sql<{ n: number }>`
    select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 7210 and objid = ${f.shadow.id}`;
  return row?.n ?? -1;
}

async function wouldThenLive(path: string, values: unknown[]) {
  await setMode('shadow');
  const before = await calendarSnapshot(t.deps.db, f.demo.customer_id);
  const dry = await post(path, values);
  expect(await calendarSnapshot(t.deps.db, f.demo.customer_id)).toEqual(before);
  expect(await calendarLocks()).toBe(0);
  expect(dry.body.data).toMatchObject({ written: 0, unchanged: 0, skipped_out_of_window: 0, dry: true });
  await setMode('live');
  const live = await post(path, values);
  expect(live.status).toBe(dry.status);
  const { written, unchanged, skipped_out_of_window } = live.body.data;
  expect(dry.body.data.would).toEqual({ written, unchanged, skipped_out_of_window });
  return dry.body.data.would;
}

describe('a shadow push says what it would write', () => {
  it('availability: the same figures as the live push, including unchanged and skipped days', async () => {
    const room = f.shadowRoom.external_id;
    const first = await wouldThenLive('inventory/availability', [
      { room_type_id: room, date_from: '2026-06-10', date_to: '2026-06-20', availability: 3 },
    ]);
    expect(first).toEqual({ written: 7, unchanged: 0, skipped_out_of_window: 4 });
    const second = await wouldThenLive('inventory/availability', [
      { room_type_id: room, date_from: '2026-06-18', date_to: '2026-06-25', availability: 3 },
      { room_type_id: room, date_from: '2026-06-20', date_to: '2026-06-20', availability: 1 },
    ]);
    expect(second).toEqual({ written: 6, unchanged: 2, skipped_out_of_window: 0 });
  });

  it('rates and restrictions pushes', async () => {
    const row = {
      room_type_id: f.shadowRoom.external_id,
      rate_plan_id: f.shadowPlan.external_id,
      date_from: '2026-06-12',
      date_to: '2026-06-16',
    };
    expect(await wouldThenLive('inventory/rates', [{ ...row, prices: { ROOM: 80 }, min_los: 2 }])).toEqual({
      written: 6,
      unchanged: 0,
      skipped_out_of_window: 4,
    });
    expect(await wouldThenLive('inventory/restrictions', [{ ...row, min_los: 2, stop_sell: true }])).toEqual({
      written: 3,
      unchanged: 0,
      skipped_out_of_window: 2,
    });
  });

  it('the per-plan rate write', async () => {
    const would = await wouldThenLive(`rate_plans/${f.shadowPlan.external_id}/rates`, [
      { date: '2026-06-13', prices: { ROOM: 90 } },
      { date: '2026-06-16', prices: { ROOM: 80 } },
      { date: '2026-06-17', prices: { ROOM: 95 }, restrictions: { stop_sell: false } },
    ]);
    expect(would).toEqual({ written: 2, unchanged: 1, skipped_out_of_window: 1 });
  });
});
