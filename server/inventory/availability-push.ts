import { type DayRange, rowRanges } from '../../actors/batch-limits.ts';
import { writeCalendar } from '../../actors/calendar-write.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { AvailabilityRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';

/** The push's route name (the event's `endpoint`) and the resource its validation messages name. */
export const AVAILABILITY_PUSH = { name: 'qc.inventory.availability', resource: 'availability' } as const;

/**
 * POST /inventory/availability: the partner sends free rooms per room type and date range; the calendar
 * stores offered = free + the service's own booked count, so bookings taken meanwhile are never resold.
 */
export async function pushAvailability(
  deps: Deps,
  principal: Principal,
  property: PropertyRow,
  values: readonly AvailabilityRowInput[],
): Promise<PushAnswer> {
  const ranges = rowRanges(values, AVAILABILITY_PUSH.resource);
  const { counters, warnings } = await writeCalendar(deps, property.id, {
    kind: 'availability',
    endpoint: AVAILABILITY_PUSH.name,
    visiblePropertyIds: [...principal.propertyIds],
    rows: values.map((row, i) => ({
      room_type_id: row.room_type_id,
      ...(ranges[i] as DayRange),
      free: row.availability,
    })),
  });
  return { ...counters, warnings };
}
