import { type DayRange, rowRanges } from '../../actors/batch-limits.ts';
import { writeCalendar } from '../../actors/calendar-write.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { RestrictionRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';
import { rowsWithoutPayload } from './refused-rows.ts';
import { checkLengthsOfStay, restrictionValues } from './restriction-values.ts';

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
  undeclared: readonly string[] = [],
): Promise<PushAnswer> {
  const resource = RESTRICTIONS_PUSH.resource;
  const ranges = rowRanges(values, resource);
  const sets = values.map(restrictionValues);
  const empty = values.flatMap((row, i) =>
    sets[i] ? [] : [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }],
  );
  if (empty.length) throw rowsWithoutPayload('errors.qc.restriction_payload_empty', empty, undeclared, 'restriction');
  checkLengthsOfStay(values, resource);

  const { counters, warnings } = await writeCalendar(deps, property.id, {
    kind: 'restrictions',
    endpoint: RESTRICTIONS_PUSH.name,
    visiblePropertyIds: [...principal.propertyIds],
    rows: values.map((row, i) => ({
      room_type_id: row.room_type_id,
      rate_plan_id: row.rate_plan_id,
      ...(ranges[i] as DayRange),
      restrictions: sets[i] ?? {},
    })),
  });
  return { ...counters, warnings };
}
