import type { Prices } from '../../actors/calendar-writes.ts';
import type { Derivation } from '../rate-plans/service.ts';
import type { OccupancyEntry } from '../rate-plans/vocabulary.ts';

/**
 * Read-time pricing (spec 2.4, 2.5): only manual codes are stored; every other code and every child plan is
 * computed from them when read, so a parent price change moves its derived codes and children at once.
 */

/**
 * Money rounding to cents, half up, on the decimal the number prints as: 49.995 (stored in binary as
 * 49.99499...) rounds to 50, as a person reading the price would expect.
 */
export function roundCents(value: number): number {
  const text = String(value);
  if (text.includes('e')) return Math.round(value * 100) / 100;
  return Number(`${Math.round(Number(`${text}e2`))}e-2`);
}

/**
 * Every sellable code of a pair's vocabulary for one day, in vocabulary order: manual from the stored value,
 * derived from its base code's resolved value (bases may be derived too), fee as its constant, cost_free as
 * 0. Inactive codes, manual codes never priced and codes derived from them are absent. A derived value is
 * rounded to cents and never negative. A pair without vocabulary shows what is stored.
 */
export function resolveCodes(occupancies: readonly OccupancyEntry[], stored: Prices | undefined): Prices {
  if (!occupancies.length) return { ...stored };
  const byCode = new Map(occupancies.map((o) => [o.code, o]));
  const memo = new Map<string, number | undefined>();
  const resolve = (code: string, path: Set<string>): number | undefined => {
    if (memo.has(code)) return memo.get(code);
    const entry = byCode.get(code);
    let value: number | undefined;
    if (entry && !path.has(code)) {
      path.add(code);
      value = codeValue(entry, stored, (base) => resolve(base, path));
      path.delete(code);
    }
    memo.set(code, value);
    return value;
  };
  const prices: Prices = {};
  for (const entry of occupancies) {
    const value = resolve(entry.code, new Set());
    if (value !== undefined) prices[entry.code] = value;
  }
  return prices;
}

function codeValue(
  entry: OccupancyEntry,
  stored: Prices | undefined,
  base: (code: string) => number | undefined,
): number | undefined {
  switch (entry.kind) {
    case 'manual':
      return stored?.[entry.code];
    case 'fee':
      return entry.fee;
    case 'cost_free':
      return 0;
    case 'derived': {
      const from = entry.derived_from === undefined ? undefined : base(entry.derived_from);
      if (from === undefined || !entry.modifier) return undefined;
      const [name, n] = entry.modifier;
      const value =
        name === 'decrease_by_percent'
          ? from * (1 - n / 100)
          : name === 'increase_by_percent'
            ? from * (1 + n / 100)
            : name === 'decrease_by_amount'
              ? from - n
              : name === 'increase_by_amount'
                ? from + n
                : undefined;
      return value === undefined ? undefined : Math.max(0, roundCents(value));
    }
    default:
      return undefined;
  }
}

/** A child plan's percentage for one date: the first period covering it, else the plan's own percent. */
export function childPercent(derivation: Derivation | null, date: string): number {
  const period = derivation?.periods?.find((p) => p.from <= date && date <= p.to);
  return period?.percent ?? derivation?.percent ?? 0;
}

/** A child's values: the parent's resolved value of each code times (1 + percent/100), rounded to cents. */
export function applyChildPercent(parent: Prices, percent: number): Prices {
  const factor = 1 + percent / 100;
  const prices: Prices = {};
  for (const [code, value] of Object.entries(parent)) prices[code] = Math.max(0, roundCents(value * factor));
  return prices;
}
