import { pushCalendar } from '../../actors/calendar-push.ts';
import { mergeRestrictions, type PairTarget, type RestrictionValues } from '../../actors/calendar-writes.ts';
import { DayRows } from '../../actors/day-rows.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { rowRanges } from './batch.ts';
import type { RestrictionRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';
import { resolvePairs } from './resolve-rows.ts';
import { checkLengthsOfStay, restrictionValues } from './restriction-values.ts';
import { loadStructure } from './structure.ts';

/** The push's route name (the event's `endpoint`) and the resource its validation messages name. */
export const RESTRICTIONS_PUSH = { name: 'qc.inventory.restrictions', resource: 'restriction' } as const;

/**
 * POST /inventory/restrictions: per pair and date range, the restriction fields the row sends replace the
 * stored ones; fields it leaves out keep their value. Accepted on any plan, parent or child (a child owns
 * its restrictions).
 */
export async function pushRestrictions(
  deps: Deps,
  principal: Principal,
  property: PropertyRow,
  values: readonly RestrictionRowInput[],
): Promise<PushAnswer> {
  const resource = RESTRICTIONS_PUSH.resource;
  const ranges = rowRanges(values, resource);
  const sets = values.map(restrictionValues);
  const empty = values.flatMap((row, i) =>
    sets[i] ? [] : [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }],
  );
  if (empty.length) throw new ApiError('errors.qc.restriction_payload_empty', { rows: empty });
  checkLengthsOfStay(values, resource);

  const outcome = await pushCalendar(deps, property.id, {
    endpoint: RESTRICTIONS_PUSH.name,
    plan: async (tx) => {
      const structure = await loadStructure(tx, property.id);
      const scope = { propertyId: property.id, visiblePropertyIds: [...principal.propertyIds] };
      const pairs = await resolvePairs(tx, structure, scope, values);
      const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
      values.forEach((_, i) => {
        const pair = pairs[i];
        const range = ranges[i];
        const set = sets[i];
        if (pair && range && set) restrictions.add(pair.key, pair.target, range.from, range.to, set);
      });
      return { tables: { restrictions }, rows: values.length, failedRows: 0, report: [] };
    },
  });
  return { ...outcome.counters, warnings: outcome.report };
}
