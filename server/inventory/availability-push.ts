import { type AvailabilityValue, mergeAvailability } from '../../actors/availability-writes.ts';
import { pushCalendar } from '../../actors/calendar-push.ts';
import { DayRows } from '../../actors/day-rows.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { rowRanges } from './batch.ts';
import type { AvailabilityRowInput } from './model.ts';
import type { PushAnswer } from './push-answer.ts';
import { resolveRoomTypes } from './resolve-rows.ts';
import { loadStructure } from './structure.ts';

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
  const outcome = await pushCalendar(deps, property.id, {
    endpoint: AVAILABILITY_PUSH.name,
    plan: async (tx) => {
      const structure = await loadStructure(tx, property.id);
      const scope = { propertyId: property.id, visiblePropertyIds: [...principal.propertyIds] };
      const roomTypes = await resolveRoomTypes(tx, structure, scope, values);
      const availability = new DayRows<number, AvailabilityValue>(mergeAvailability);
      values.forEach((row, i) => {
        const roomType = roomTypes[i];
        const range = ranges[i];
        if (roomType && range)
          availability.add(String(roomType.id), roomType.id, range.from, range.to, {
            free: row.availability,
            opened: null,
          });
      });
      return { tables: { availability }, rows: values.length, failedRows: 0, report: [] };
    },
  });
  return { ...outcome.counters, warnings: outcome.report };
}
