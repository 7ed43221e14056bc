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

/** The runs a day-by-day expansion gives: each target's days ascending, consecutive ones sharing a value joined. */
function expectedRuns(rows: { target: number; from: number; to: number; value: Value }[], lo: number, hi: number) {
  const byTarget = new Map<number, Map<number, Value>>();
  for (const r of rows) {
    const days = byTarget.get(r.target) ?? new Map<number, Value>();
    byTarget.set(r.target, days);
    for (let day = r.from; day <= r.to; day++) if (day >= lo && day <= hi) days.set(day, r.value);
  }
  const runs: [number, number, number, Value][] = [];
  for (const [target, days] of byTarget) {
    let run: [number, number, number, Value] | undefined;
    for (const day of [...days.keys()].sort((a, b) => a - b)) {
      const value = days.get(day) as Value;
      if (run && run[2] === day - 1 && run[3] === value) run[2] = day;
      else {
        run = [target, day, day, value];
        runs.push(run);
      }
    }
  }
  return runs;
}

const value = fc.integer({ min: 0, max: 2 }).map((v) => ({ v }));

describe('DayRows.within', () => {
  it('hands out runs that cover exactly the batch days inside the window, once each, with their last value', () => {
    const row = fc.record({
      target: fc.integer({ min: 1, max: 3 }),
      from: fc.integer({ min: 0, max: 60 }),
      length: fc.integer({ min: 1, max: 30 }),
      value,
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
        expect(inside.map((r) => [r.target, r.from, r.to, r.value])).toEqual(expectedRuns(rows, lo, hi));
      }),
    );
  });

  it('answers the same runs and counts for rows that do not overlap, sent in any order, as day by day', () => {
    // Each target's rows tile its days without overlap (a push's usual shape), shared values joining across rows.
    const tiling = fc.record({
      target: fc.integer({ min: 1, max: 3 }),
      start: fc.integer({ min: 0, max: 40 }),
      pieces: fc.array(
        fc.record({ length: fc.integer({ min: 1, max: 9 }), gap: fc.integer({ min: 0, max: 2 }), value }),
        {
          minLength: 1,
          maxLength: 8,
        },
      ),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(tiling, { selector: (t) => t.target, maxLength: 3 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer(),
        (tilings, lo, seed) => {
          const rows = tilings.flatMap(({ target, start, pieces }) => {
            let day = start;
            return pieces.map(({ length, gap, value }) => {
              const row = { target, from: day + gap, to: day + gap + length - 1, value };
              day = row.to + 1;
              return row;
            });
          });
          // Sent in any order: the batch sorts each target's rows itself.
          const sent = [...rows].sort((a, b) => ((a.from * 7919 + seed) % 13) - ((b.from * 7919 + seed) % 13));
          const hi = lo + 20;
          const batch = new DayRows<number, Value>(later);
          for (const r of sent) batch.add(String(r.target), r.target, r.from, r.to, r.value);
          const { inside, days, outside } = batch.within(lo, hi);
          const want = expected(rows, lo, hi);
          // Targets in the order the batch first met them, as the writers send them.
          expect(inside.map((r) => [r.target, r.from, r.to, r.value])).toEqual(expectedRuns(sent, lo, hi));
          expect(days).toBe(want.days.size);
          expect(outside).toBe(want.outside);
        },
      ),
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
