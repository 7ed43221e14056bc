import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import {
  applyChildPercent,
  childPercent,
  occupancyPrice,
  type PriceCode,
  resolveCodes,
  resolveDay,
  roundMoney,
  stayPrice,
} from './price-engine.ts';

type OccupancyEntry = PriceCode;

describe('the pricing engine', () => {
  it('rounds money half away from zero on the printed decimal', () => {
    expect([49.995, 1.005, 2.675, 99.99 * 0.5, 0.1 + 0.2, 299.997, 12, 0.004, 0.005].map(roundMoney)).toEqual([
      50, 1.01, 2.68, 50, 0.3, 300, 12, 0, 0.01,
    ]);
  });

  it('clamps every price at 0: negative derived codes, negative child percents, negative input', () => {
    expect(roundMoney(-0.005)).toBe(0);
    expect(roundMoney(-50)).toBe(0);
    const vocabulary: PriceCode[] = [
      { code: 'A1', kind: 'manual' },
      { code: 'A2', kind: 'derived', derived_from: 'A1', modifier: ['decrease_by_amount', 150] },
      { code: 'A3', kind: 'derived', derived_from: 'A2', modifier: ['increase_by_amount', 10] },
    ];
    // A3 derives from A2's published 0, not from its unclamped -50.
    expect(resolveCodes(vocabulary, { A1: 100 })).toEqual({ A1: 100, A2: 0, A3: 10 });
    expect(applyChildPercent({ A1: 100 }, -150)).toEqual({ A1: 0 });
  });

  it("publishes manual values rounded and chains derived codes from their base's published value", () => {
    const vocabulary: PriceCode[] = [
      { code: 'A1', kind: 'manual' },
      { code: 'A2', kind: 'derived', derived_from: 'A1', modifier: ['increase_by_percent', 50] },
      { code: 'A3', kind: 'derived', derived_from: 'A2', modifier: ['decrease_by_percent', 10] },
    ];
    // A1 1.005 -> 1.01; A2 = 1.01 * 1.5 = 1.515 -> 1.52; A3 = 1.52 * 0.9 = 1.368 -> 1.37.
    expect(resolveCodes(vocabulary, { A1: 1.005 })).toEqual({ A1: 1.01, A2: 1.52, A3: 1.37 });
  });

  it('prices a child plan day from its parent pair with the period of that date', () => {
    const vocabulary: PriceCode[] = [{ code: 'ROOM', kind: 'manual' }];
    const derivation = { percent: -10, periods: [{ from: '2026-07-02', to: '2026-07-02', percent: 50 }] };
    const pair = { vocabulary, derivation, isChild: true };
    expect(resolveDay(pair, { ROOM: 100 }, '2026-07-01')).toEqual({ ROOM: 90 });
    expect(resolveDay(pair, { ROOM: 100 }, '2026-07-02')).toEqual({ ROOM: 150 });
    expect(resolveDay({ vocabulary: undefined, isChild: true }, { ROOM: 100 }, '2026-07-02')).toEqual({});
  });

  it('prices a night for guests as the sum of the published codes it uses', () => {
    const prices = { A1: 50.01, A2: 80.5, CEB: 10.25, CNB: 5, Apn1: 20.1, Cpn2: 7.7, ROOM: 99.99 };
    expect(occupancyPrice('per_room', prices, { adults: 2, childLetters: ['C'] })).toBe(99.99);
    expect(occupancyPrice('per_person', prices, { adults: 2, childLetters: ['C', 'T'] })).toBe(90.75);
    expect(occupancyPrice('per_person', prices, { adults: 3, childLetters: [] })).toBeUndefined();
    expect(occupancyPrice('per_occupancy', prices, { adults: 2, childLetters: ['C'] })).toBe(77.81);
    expect(occupancyPrice('per_occupancy', prices, { adults: 3, childLetters: [] })).toBeUndefined();
    expect(stayPrice([0.1, 0.2, 1.01])).toBe(1.31);
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
    expect(resolveCodes([], { ANY: 4, ODD: 1.005 })).toEqual({ ANY: 4, ODD: 1.01 });
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
      fc.property(vocabulary, stored, fc.integer({ min: -200, max: 100 }), (occupancies, prices, percent) => {
        const resolved = resolveCodes(occupancies, prices);
        const inactive = new Set(occupancies.filter((o) => o.kind === 'inactive').map((o) => o.code));
        for (const [c, value] of Object.entries(resolved)) {
          expect(occupancies.some((o) => o.code === c)).toBe(true);
          expect(inactive.has(c)).toBe(false);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        const child = applyChildPercent(resolved, percent);
        expect(Object.keys(child)).toEqual(Object.keys(resolved));
        for (const value of [...Object.values(resolved), ...Object.values(child)]) {
          expect(roundMoney(value)).toBe(value);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
