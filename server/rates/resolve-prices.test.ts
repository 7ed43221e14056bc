import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import type { OccupancyEntry } from '../rate-plans/vocabulary.ts';
import { applyChildPercent, childPercent, resolveCodes, roundCents } from './resolve-prices.ts';

describe('read-time pricing', () => {
  it('rounds money half up on the printed decimal', () => {
    expect([49.995, 1.005, 99.99 * 0.5, 0.1 + 0.2, 299.997, 12].map(roundCents)).toEqual([50, 1.01, 50, 0.3, 300, 12]);
  });

  it('leaves out codes it cannot price: cycles, unknown modifiers, missing bases and fees', () => {
    const occupancies: OccupancyEntry[] = [
      { code: 'A1', kind: 'manual' },
      { code: 'X', kind: 'derived', derived_from: 'Y', modifier: ['increase_by_amount', 1] },
      { code: 'Y', kind: 'derived', derived_from: 'X', modifier: ['increase_by_amount', 1] },
      { code: 'Z', kind: 'derived', derived_from: 'A1', modifier: ['times' as never, 2] },
      { code: 'W', kind: 'derived', derived_from: 'NOPE', modifier: ['increase_by_amount', 1] },
      { code: 'F', kind: 'fee' },
      { code: 'C', kind: 'cost_free' },
    ];
    expect(resolveCodes(occupancies, { A1: 10 })).toEqual({ A1: 10, C: 0 });
  });

  it('shows what is stored for a pair without vocabulary', () => {
    expect(resolveCodes([], { ANY: 4 })).toEqual({ ANY: 4 });
    expect(resolveCodes([], undefined)).toEqual({});
  });

  it('takes the first period covering the date, else the plan percent', () => {
    const derivation = {
      percent: -10,
      periods: [
        { from: '2026-07-01', to: '2026-07-10', percent: -20 },
        { from: '2026-07-05', to: '2026-07-20', percent: 5 },
      ],
    };
    expect(childPercent(derivation, '2026-06-30')).toBe(-10);
    expect(childPercent(derivation, '2026-07-05')).toBe(-20);
    expect(childPercent(derivation, '2026-07-11')).toBe(5);
    expect(childPercent(null, '2026-07-11')).toBe(0);
  });

  it('resolves only vocabulary codes, never inactive ones, never below zero (fast-check)', () => {
    const code = fc.constantFrom('A1', 'A2', 'A3', 'B1', 'B2');
    const entry: fc.Arbitrary<OccupancyEntry> = fc.oneof(
      fc.record({ code, kind: fc.constantFrom('manual' as const, 'cost_free' as const, 'inactive' as const) }),
      fc.record({ code, kind: fc.constant('fee' as const), fee: fc.integer({ min: 0, max: 50 }) }),
      fc.record({
        code,
        kind: fc.constant('derived' as const),
        derived_from: code,
        modifier: fc.tuple(
          fc.constantFrom(
            'decrease_by_percent' as const,
            'increase_by_percent' as const,
            'decrease_by_amount' as const,
            'increase_by_amount' as const,
          ),
          fc.integer({ min: 0, max: 200 }),
        ),
      }),
    );
    const vocabulary = fc.uniqueArray(entry, { selector: (e) => e.code, minLength: 1 });
    const stored = fc.dictionary(code, fc.double({ min: 0, max: 10_000, noNaN: true }));
    fc.assert(
      fc.property(vocabulary, stored, fc.integer({ min: -100, max: 100 }), (occupancies, prices, percent) => {
        const resolved = resolveCodes(occupancies, prices);
        const inactive = new Set(occupancies.filter((o) => o.kind === 'inactive').map((o) => o.code));
        for (const [c, value] of Object.entries(resolved)) {
          expect(occupancies.some((o) => o.code === c)).toBe(true);
          expect(inactive.has(c)).toBe(false);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        const child = applyChildPercent(resolved, percent);
        expect(Object.keys(child)).toEqual(Object.keys(resolved));
        for (const value of Object.values(child)) expect(roundCents(value)).toBe(value);
      }),
      { numRuns: 200 },
    );
  });
});
