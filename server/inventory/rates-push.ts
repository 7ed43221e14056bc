import { type DayRange, rowRanges } from '../../actors/batch-limits.ts';
import { writeCalendar } from '../../actors/calendar-write.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { WireOccupancySchema } from '../rate-plans/model.ts';
import type { PriceRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';
import { rowsWithoutPayload } from './refused-rows.ts';
import { checkLengthsOfStay, restrictionValues } from './restriction-values.ts';

/** The longest occupancy code a pair's vocabulary takes (its wire form); the per-plan write keeps to it too. */
export const LONGEST_CODE = WireOccupancySchema.properties.code.maxLength as number;

/** The push's route name (the event's `endpoint`) and the resource its validation messages name. */
export const RATES_PUSH = { name: 'qc.inventory.rates', resource: 'rate' } as const;

/**
 * POST /inventory/rates: nightly values per code, only into manual codes of the pair's vocabulary (the
 * actor resolves codes against the structure: actors/price-rows.ts). Codes that cannot take a value are row
 * warnings while the rest of the batch is written; restriction fields on a price row apply even when its
 * prices do not.
 */
export async function pushRates(
  deps: Deps,
  principal: Principal,
  property: PropertyRow,
  values: readonly PriceRowInput[],
  undeclared: readonly string[] = [],
): Promise<PushAnswer> {
  const resource = RATES_PUSH.resource;
  const ranges = rowRanges(values, resource);
  const neither = values.flatMap((row, i) =>
    (row.rate === undefined) === (row.prices === undefined) || (row.prices && !Object.keys(row.prices).length)
      ? [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }]
      : [],
  );
  if (neither.length) throw rowsWithoutPayload('errors.qc.rate_or_prices_required', neither, undeclared, 'price');
  checkLengthsOfStay(values, resource);

  const { counters, warnings } = await writeCalendar(deps, property.id, {
    kind: 'prices',
    endpoint: RATES_PUSH.name,
    longestCode: LONGEST_CODE,
    visiblePropertyIds: [...principal.propertyIds],
    rows: values.map((row, i) => ({
      room_type_id: row.room_type_id,
      rate_plan_id: row.rate_plan_id,
      ...(ranges[i] as DayRange),
      rate: row.rate,
      prices: row.prices,
      restrictions: restrictionValues(row),
    })),
  });
  return { ...counters, warnings };
}
