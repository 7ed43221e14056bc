import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { DayRows } from './day-rows.ts';

type Value = { v: number };
const later = (_earlier: Value, next: Value) => next;

/** The batch as a plain map: "target:day" -> value, last write wins, as the writers must store it. */
function expected(rows: { target: number; from: number; to: number; value: Value }[], lo: number, hi: number) {
  const days = new Map<string, Value>();
  let outside = 0;
  const seen = new Set<string>();
  for (const r of rows)
    for (let day = r.from; day <= r.to; day++) {
      const key = `${r.target}:${day}`;
      if (day < lo || day > hi) {
        if (!seen.has(key)) outside++;
      } else days.set(key, r.value);
      seen.add(key);
    }
  return { days, outside };
}

describe('DayRows.within', () => {
  it('hands out runs that cover exactly the batch days inside the window, once each, with their last value', () => {
    const row = fc.record({
      target: fc.integer({ min: 1, max: 3 }),
      from: fc.integer({ min: 0, max: 60 }),
      length: fc.integer({ min: 1, max: 30 }),
      value: fc.integer({ min: 0, max: 2 }).map((v) => ({ v })),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.integer({ min: 0, max: 40 }), (input, lo) => {
        const rows = input.map((r) => ({ target: r.target, from: r.from, to: r.from + r.length - 1, value: r.value }));
        const hi = lo + 30;
        const batch = new DayRows<number, Value>(later);
        for (const r of rows) batch.add(String(r.target), r.target, r.from, r.to, r.value);
        const { inside, days, outside } = batch.within(lo, hi);

        const got = new Map<string, Value>();
        for (const run of inside) {
          expect(run.from).toBeLessThanOrEqual(run.to);
          for (let day = run.from; day <= run.to; day++) {
            const key = `${run.target}:${day}`;
            expect(got.has(key)).toBe(false);
            got.set(key, run.value);
          }
        }
        const want = expected(rows, lo, hi);
        expect(got).toEqual(want.days);
        expect(days).toBe(want.days.size);
        expect(outside).toBe(want.outside);
      }),
    );
  });

  it('keeps a row range whole: one run per row when rows do not overlap', () => {
    const batch = new DayRows<number, Value>(later);
    const a = { v: 1 };
    const b = { v: 2 };
    batch.add('1', 1, 20, 39, b);
    batch.add('1', 1, 0, 19, a);
    batch.add('2', 2, 0, 19, a);
    const { inside, days } = batch.within(0, 100);
    expect(days).toBe(60);
    expect(inside.map((r) => [r.target, r.from, r.to, r.value.v])).toEqual([
      [1, 0, 19, 1],
      [1, 20, 39, 2],
      [2, 0, 19, 1],
    ]);
  });
});
