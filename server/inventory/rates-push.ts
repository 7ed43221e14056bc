import { pushCalendar } from '../../actors/calendar-push.ts';
import {
  mergePrices,
  mergeRestrictions,
  type PairTarget,
  type Prices,
  type RestrictionValues,
} from '../../actors/calendar-writes.ts';
import { DayRows } from '../../actors/day-rows.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { rowRanges } from './batch.ts';
import type { PriceRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';
import { resolvePairs } from './resolve-rows.ts';
import { checkLengthsOfStay, restrictionValues } from './restriction-values.ts';
import type { StructurePair } from './structure.ts';
import { loadStructure } from './structure.ts';
import { Warnings } from './warnings.ts';

/** The one code of a per_room pair's vocabulary, and what the scalar `rate` shortcut writes. */
const ROOM = 'ROOM';

/** The push's route name (the event's `endpoint`) and the resource its validation messages name. */
export const RATES_PUSH = { name: 'qc.inventory.rates', resource: 'rate' } as const;

/**
 * POST /inventory/rates: nightly values per code, only into manual codes of the pair's vocabulary (derived
 * codes and child plans are computed at read time). Codes that cannot take a value are row warnings while
 * the rest of the batch is written; restriction fields on a price row apply even when its prices do not.
 */
export async function pushRates(
  deps: Deps,
  principal: Principal,
  property: PropertyRow,
  values: readonly PriceRowInput[],
): Promise<PushAnswer> {
  const resource = RATES_PUSH.resource;
  const ranges = rowRanges(values, resource);
  const neither = values.flatMap((row, i) =>
    (row.rate === undefined) === (row.prices === undefined) || (row.prices && !Object.keys(row.prices).length)
      ? [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }]
      : [],
  );
  if (neither.length) throw new ApiError('errors.qc.rate_or_prices_required', { rows: neither });
  checkLengthsOfStay(values, resource);

  const outcome = await pushCalendar(deps, property.id, {
    endpoint: RATES_PUSH.name,
    plan: async (tx) => {
      const structure = await loadStructure(tx, property.id);
      const scope = { propertyId: property.id, visiblePropertyIds: [...principal.propertyIds] };
      const pairs = await resolvePairs(tx, structure, scope, values);
      refuseOccupancyPricing(values, pairs);

      const warnings = new Warnings();
      const rates = new DayRows<PairTarget, Prices>(mergePrices);
      const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
      values.forEach((row, i) => {
        const pair = pairs[i];
        const range = ranges[i];
        if (!pair || !range) return;
        const set = restrictionValues(row);
        if (set) restrictions.add(pair.key, pair.target, range.from, range.to, set);
        const prices = writablePrices(row, i, pair, warnings);
        if (prices) rates.add(pair.key, pair.target, range.from, range.to, prices);
      });
      return {
        tables: { rates, restrictions },
        rows: values.length,
        failedRows: warnings.failedRows,
        report: warnings.list,
      };
    },
  });
  return { ...outcome.counters, warnings: outcome.report };
}

/** Per-code prices on a per_room pair (anything but ROOM) refuse the whole batch: 422 occupancy_pricing_not_supported. */
function refuseOccupancyPricing(values: readonly PriceRowInput[], pairs: readonly StructurePair[]): void {
  const refused = values.flatMap((row, i) =>
    row.prices && pairs[i]?.plan.sellType === 'per_room' && Object.keys(row.prices).some((code) => code !== ROOM)
      ? [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }]
      : [],
  );
  if (refused.length) throw new ApiError('errors.qc.occupancy_pricing_not_supported', { rows: refused });
}

/** The codes of a row that may be written, warning about the others; undefined when none may. */
function writablePrices(row: PriceRowInput, i: number, pair: StructurePair, warnings: Warnings): Prices | undefined {
  const ids = { room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id };
  if (pair.plan.parentId !== null) {
    // A child plan's values come from its parent's calendar: the prices belong there.
    warnings.add({
      row: i,
      key: pair.parentMapped ? 'errors.qc.prices_belong_to_parent' : 'errors.qc.price_on_derived_rate',
      ...ids,
      parent_rate_plan_id: pair.plan.parentExternalId,
    });
    return undefined;
  }
  let sent: Prices;
  if (row.rate !== undefined) {
    if (pair.plan.sellType !== 'per_room') {
      warnings.add({ row: i, key: 'errors.qc.prices_map_required', ...ids });
      return undefined;
    }
    sent = { [ROOM]: row.rate };
  } else {
    sent = row.prices ?? {};
  }
  // A pair with no configured vocabulary takes any code (spec 7.2, unknown_acm_code).
  if (!pair.kinds.size) return sent;

  const kept: Prices = {};
  for (const [code, value] of Object.entries(sent)) {
    const kind = pair.kinds.get(code);
    if (kind === undefined) {
      warnings.add({ row: i, key: 'errors.qc.unknown_acm_code', ...ids, code, allowed_codes: pair.manualCodes });
    } else if (kind !== 'manual') {
      warnings.add({ row: i, key: 'errors.qc.acm_not_priceable', ...ids, code, kind });
    } else {
      kept[code] = value;
    }
  }
  return Object.keys(kept).length ? kept : undefined;
}
