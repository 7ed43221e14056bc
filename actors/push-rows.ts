import type { Db } from '../server/core/db/db.ts';
import { type AvailabilityValue, mergeAvailability } from './availability-writes.ts';
import type { PropertyStructure } from './calendar-structure.ts';
import type { PlannedBatch } from './calendar-tables.ts';
import { mergeRestrictions, type PairTarget, type RestrictionValues } from './calendar-writes.ts';
import { DayRows } from './day-rows.ts';
import { type BatchScope, resolvePairs, resolveRoomTypes } from './resolve-rows.ts';

/** One row of an availability push (POST /inventory/availability) as data: free rooms of a room type over days. */
export interface AvailabilityRow {
  room_type_id: string;
  from: number;
  to: number;
  free: number;
}

/** One row of a restrictions push (POST /inventory/restrictions): the fields it sets on a pair over days. */
export interface RestrictionRow {
  room_type_id: string;
  rate_plan_id: string;
  from: number;
  to: number;
  restrictions: RestrictionValues;
}

/** Availability rows resolved against the structure: free rooms per room type and day (offered = free + booked). */
export async function availabilityTables(
  tx: Db,
  structure: PropertyStructure,
  scope: BatchScope,
  rows: readonly AvailabilityRow[],
): Promise<PlannedBatch> {
  const roomTypes = await resolveRoomTypes(tx, structure, scope, rows);
  const availability = new DayRows<number, AvailabilityValue>(mergeAvailability);
  rows.forEach((row, i) => {
    const roomType = roomTypes[i];
    if (roomType)
      availability.add(String(roomType.id), roomType.id, row.from, row.to, { free: row.free, opened: null });
  });
  return { tables: { availability }, rows: rows.length, failedRows: 0, warnings: [] };
}

/** Restriction rows resolved against the structure: the fields each sets replace the stored ones, on any plan. */
export async function restrictionTables(
  tx: Db,
  structure: PropertyStructure,
  scope: BatchScope,
  rows: readonly RestrictionRow[],
): Promise<PlannedBatch> {
  const pairs = await resolvePairs(tx, structure, scope, rows);
  const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
  rows.forEach((row, i) => {
    const pair = pairs[i];
    if (pair) restrictions.add(pair.key, pair.target, row.from, row.to, row.restrictions);
  });
  return { tables: { restrictions }, rows: rows.length, failedRows: 0, warnings: [] };
}
