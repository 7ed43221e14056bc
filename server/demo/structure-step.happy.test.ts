import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import type { DemoProperty } from './demo.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('structure demo step', () => {
  it('gives the live property a 2+1 room, a larger apartment and four plans, one entry per pair', () => {
    const live = demo.properties[0] as DemoProperty;
    expect(live.room_types.map((r) => [r.partner_code, r.regular_beds, r.extra_beds])).toEqual([
      ['DBL', 2, 1],
      ['APT', 4, 2],
    ]);
    for (const r of live.room_types) expect(Number.isInteger(r.legacy_room_id)).toBe(true);
    const sellTypes = [...new Set(live.rate_plans.map((p) => `${p.partner_code}:${p.sell_type}`))];
    expect(sellTypes).toEqual(['BAR:per_room', 'PP:per_person', 'OCC:per_occupancy', 'NRF:per_room']);
    expect(live.rate_plans).toHaveLength(8);
    const bar = live.rate_plans.find((p) => p.partner_code === 'BAR');
    for (const child of live.rate_plans.filter((p) => p.partner_code === 'NRF'))
      expect(child.parent_rate_plan_id).toBe(bar?.id ?? '');
    for (const p of live.rate_plans.filter((p) => p.partner_code !== 'NRF')) expect(p.parent_rate_plan_id).toBeNull();
    expect(new Set(live.rate_plans.map((p) => p.room_type_id))).toEqual(new Set(live.room_types.map((r) => r.id)));
  });

  it('gives the shadow property one room type and one per_room plan', () => {
    const shadow = demo.properties[1] as DemoProperty;
    expect(shadow.room_types).toHaveLength(1);
    expect(shadow.rate_plans).toEqual([
      expect.objectContaining({
        sell_type: 'per_room',
        room_type_id: shadow.room_types[0]?.id,
        parent_rate_plan_id: null,
      }),
    ]);
  });

  it('stores the child plan derivation and the pairs vocabularies in the shared contract form', async () => {
    const live = demo.properties[0] as DemoProperty;
    const child = live.rate_plans.find((p) => p.partner_code === 'NRF');
    const [row] = await t.deps.db.sql<{ derivation: unknown; parent_id: number | null }>`
      select derivation, parent_id from rate_plans where external_id = ${child?.id}`;
    expect(row?.derivation).toEqual({ percent: -10 });
    expect(row?.parent_id).not.toBeNull();
    const pairs = await t.deps.db.sql<{ code: string; occupancies: unknown }>`
      select p.partner_code || '/' || r.partner_code as code, rp.occupancies from rate_plan_rooms rp
      join rate_plans p on p.id = rp.rate_plan_id join room_types r on r.id = rp.room_type_id
      where r.external_id = ${live.room_types[0]?.id} order by p.id`;
    expect(pairs.map((p) => p.code)).toEqual(['BAR/DBL', 'PP/DBL', 'OCC/DBL', 'NRF/DBL']);
    expect(pairs[0]?.occupancies).toEqual([{ code: 'ROOM', kind: 'manual', persons: 3 }]);
    expect(pairs[3]?.occupancies).toEqual(pairs[0]?.occupancies);
  });
});
