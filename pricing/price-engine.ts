/**
 * THE pricing engine: the one place a price is computed from the calendar. `GET .../rate_plans/{id}/rates`
 * (server/rates/read.ts) and legacy `getBookingOffers` (legacy/property/offer-quote.ts) both price through it,
 * so they cannot disagree. It lives in actors/, beside the calendar whose stored prices it turns into published
 * ones (legacy/ may import only core and actors); it only computes: callers read the stored prices, and it never
 * touches the database.
 *
 * The rule (also in the README, Inventory, "The pricing engine and its rounding rule"):
 * - Every price the engine publishes is money: rounded to cents (`roundMoney`: half away from zero on the
 *   decimal the number prints as, so 1.005 is 1.01) and never below 0. That holds for each code of a day
 *   (manual codes included: a stored 1.005 publishes as 1.01), for a child plan's codes and for a stay.
 * - A day of a pair (`resolveDay`): manual codes as stored; derived codes apply their modifier to their base's
 *   published value (bases may be derived too: chains resolve, cycles and missing bases leave the code out);
 *   fee codes their fee; cost_free 0; inactive codes and manual codes never priced are absent. A child plan
 *   takes every code of its parent's pair for the same room times (1 + percent/100), percent being the first
 *   derivation period covering that date, else the plan's percent (`childPercent`).
 * - A night for guests (`occupancyPrice`): the sum of the published codes the occupancy uses, so a night's
 *   price is always the sum of prices `GET .../rates` shows for that date.
 * - A stay (`stayPrice`): the sum of its published nightly prices.
 *
 * API (for callers that add to it, e.g. promotions: apply them to the published values and round again with
 * `roundMoney`, so the one rounding rule stays):
 *   roundMoney(value)                                   -> cents, half away from zero, clamped at 0
 *   resolveCodes(vocabulary, stored)                    -> Prices of every priceable code of a pair for one day
 *   childPercent(derivation, date)                      -> a child plan's percent on that date
 *   applyChildPercent(prices, percent)                  -> a child plan's Prices from its parent's
 *   resolveDay({vocabulary, derivation, isChild}, stored, date)
 *                                                       -> the published Prices of a (plan, room) day
 *   occupancyPrice(sellType, prices, {adults, childLetters})
 *                                                       -> a night's price for guests, undefined if unsellable
 *   stayPrice(nightly)                                  -> the rounded sum of nightly prices
 */

/** Code -> price, as stored in `rates.prices` and as published. */
export type Prices = Record<string, number>;

export type Modifier = [string, number];

/** One code of a pair's occupancy vocabulary (server/rate-plans/vocabulary.ts OccupancyEntry fits this shape). */
export interface PriceCode {
  code: string;
  kind: string;
  derived_from?: string;
  modifier?: Modifier;
  fee?: number;
}

/** A child plan's derivation from its parent (`rate_plans.derivation`). */
export interface ChildDerivation {
  percent?: number;
  periods?: { from: string; to: string; percent: number }[];
}

/**
 * Money to cents, half away from zero on the decimal the number prints as (49.995, stored in binary as
 * 49.99499..., rounds to 50, as a person reading the price expects), and never below 0: no price is negative.
 */
export function roundMoney(value: number): number {
  if (!(value > 0)) return 0;
  const text = String(value);
  if (text.includes('e')) return Math.round(value * 100) / 100;
  return Number(`${Math.round(Number(`${text}e2`))}e-2`);
}

/**
 * Every priceable code of a pair's vocabulary for one day, in vocabulary order, each published (roundMoney).
 * A pair without vocabulary publishes what is stored.
 */
export function resolveCodes(vocabulary: readonly PriceCode[], stored: Prices | undefined): Prices {
  if (!vocabulary.length) return publish(stored ?? {});
  const byCode = new Map(vocabulary.map((o) => [o.code, o]));
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
  for (const entry of vocabulary) {
    const value = resolve(entry.code, new Set());
    if (value !== undefined) prices[entry.code] = value;
  }
  return prices;
}

function codeValue(
  entry: PriceCode,
  stored: Prices | undefined,
  base: (code: string) => number | undefined,
): number | undefined {
  switch (entry.kind) {
    case 'manual':
      return typeof stored?.[entry.code] === 'number' ? roundMoney(stored[entry.code] as number) : undefined;
    case 'fee':
      return entry.fee === undefined ? undefined : roundMoney(entry.fee);
    case 'cost_free':
      return 0;
    case 'derived': {
      const from = entry.derived_from === undefined ? undefined : base(entry.derived_from);
      if (from === undefined || !entry.modifier) return undefined;
      const value = modify(from, entry.modifier);
      return value === undefined ? undefined : roundMoney(value);
    }
    default:
      return undefined;
  }
}

function modify(base: number, [name, n]: Modifier): number | undefined {
  switch (name) {
    case 'decrease_by_percent':
      return base * (1 - n / 100);
    case 'increase_by_percent':
      return base * (1 + n / 100);
    case 'decrease_by_amount':
      return base - n;
    case 'increase_by_amount':
      return base + n;
    default:
      return undefined;
  }
}

/** A child plan's percentage for one date: the first period covering it, else the plan's own percent. */
export function childPercent(derivation: ChildDerivation | null | undefined, date: string): number {
  const period = derivation?.periods?.find((p) => p.from <= date && date <= p.to);
  return period?.percent ?? derivation?.percent ?? 0;
}

/** A child plan's prices: each of its parent's published prices times (1 + percent/100), published. */
export function applyChildPercent(parent: Prices, percent: number): Prices {
  const factor = 1 + percent / 100;
  const prices: Prices = {};
  for (const [code, value] of Object.entries(parent)) prices[code] = roundMoney(value * factor);
  return prices;
}

/** How a (plan, room) pair is priced: the vocabulary it resolves by and, for a child plan, its derivation. */
export interface PairPricing {
  /** The pair's own vocabulary, or for a child plan its parent's pair's; undefined when there is none (no prices). */
  vocabulary: readonly PriceCode[] | undefined;
  /** Set for a child plan only. */
  derivation?: ChildDerivation | null;
  isChild: boolean;
}

/** The published prices of one day of a pair, from the stored manual prices of its price source (parent for a child). */
export function resolveDay(pair: PairPricing, stored: Prices | undefined, date: string): Prices {
  if (!pair.vocabulary) return {};
  const prices = resolveCodes(pair.vocabulary, stored);
  return pair.isChild ? applyChildPercent(prices, childPercent(pair.derivation, date)) : prices;
}

/**
 * The guests of a night: adults (children outside every age bracket already counted as adults) and the
 * bracket letter of each child, in the order given.
 */
export interface Occupancy {
  adults: number;
  childLetters: readonly string[];
}

/**
 * A night's price for an occupancy from a day's published prices, undefined when the adults' code has no
 * price (the pair cannot be sold that night). per_room `ROOM`; per_person `A{adults}` plus, per child, its
 * bracket's first priced `EB`, `NB`, `RB`; per_occupancy `A1` plus `Apn1..Apn{adults-1}` plus, per child in
 * position k after the adults, `{letter}pn{k}`. A child code the pair does not price costs nothing.
 */
export function occupancyPrice(
  sellType: string,
  prices: Prices,
  { adults, childLetters }: Occupancy,
): number | undefined {
  let total: number | undefined;
  if (sellType === 'per_room') total = prices.ROOM;
  else if (sellType === 'per_person') {
    total = prices[`A${adults}`];
    if (total !== undefined)
      for (const l of childLetters) total += prices[`${l}EB`] ?? prices[`${l}NB`] ?? prices[`${l}RB`] ?? 0;
  } else {
    total = prices.A1;
    for (let k = 1; k < adults && total !== undefined; k++) {
      const supplement = prices[`Apn${k}`];
      total = supplement === undefined ? undefined : total + supplement;
    }
    for (const [i, l] of childLetters.entries()) if (total !== undefined) total += prices[`${l}pn${adults + i}`] ?? 0;
  }
  return total === undefined ? undefined : roundMoney(total);
}

/** A stay's price: the sum of its published nightly prices. */
export function stayPrice(nightly: readonly number[]): number {
  return roundMoney(nightly.reduce((sum, n) => sum + n, 0));
}

function publish(stored: Prices): Prices {
  const prices: Prices = {};
  for (const [code, value] of Object.entries(stored)) if (typeof value === 'number') prices[code] = roundMoney(value);
  return prices;
}
