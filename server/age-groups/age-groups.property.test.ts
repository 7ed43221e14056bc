import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { call, configTest } from '../config-surfaces/test-fixtures.ts';

/**
 * Any sequence of partial PUTs leaves the brackets equal to the fold of their fields over the defaults,
 * where a PUT whose merged bracket would be inverted is refused whole (422) and changes nothing. The
 * model below is written independently of the service's merge.
 */
type Model = { is_active: boolean; ranges: Record<string, [number, number]> };
const CODES = ['I', 'C', 'T'] as const;

const patch = fc.record(
  {
    is_active: fc.boolean(),
    groups: fc.uniqueArray(
      fc.record(
        {
          code: fc.constantFrom(...CODES),
          from_age: fc.integer({ min: 0, max: 17 }),
          to_age: fc.integer({ min: 0, max: 17 }),
        },
        { requiredKeys: ['code'] },
      ),
      { selector: (g) => g.code, maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

type Patch = { is_active?: boolean; groups?: { code: string; from_age?: number; to_age?: number }[] };

function apply(model: Model, p: Patch): { model: Model; inverted: boolean } {
  const ranges = { ...model.ranges };
  for (const g of p.groups ?? []) {
    const [from, to] = ranges[g.code] as [number, number];
    ranges[g.code] = [g.from_age ?? from, g.to_age ?? to];
  }
  if (Object.values(ranges).some(([from, to]) => from > to)) return { model, inverted: true };
  return { model: { is_active: p.is_active ?? model.is_active, ranges }, inverted: false };
}

const c = configTest();

describe('age-group merge (property)', () => {
  it('equals the fold of the PUTs’ fields; an inverted range never writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(patch, { minLength: 1, maxLength: 6 }), async (puts) => {
        // Each run starts from a property that never set its brackets.
        await c.t.deps.db
          .sql`delete from age_groups where property_id = (select id from properties where external_id = ${c.property})`;
        const path = `/properties/${c.property}/age-groups`;
        let model: Model = { is_active: true, ranges: { I: [0, 2], C: [3, 11], T: [12, 17] } };
        for (const p of puts) {
          const next = apply(model, p);
          const res = await call(c, 'PUT', path, p);
          expect(res.status).toBe(next.inverted ? 422 : 200);
          model = next.model;
        }
        const stored = await call(c, 'GET', path);
        expect(stored.body.data).toEqual({
          is_active: model.is_active,
          groups: CODES.map((code) => ({ code, from_age: model.ranges[code]?.[0], to_age: model.ranges[code]?.[1] })),
        });
      }),
      { numRuns: 25 },
    );
  });
});
