import type { Db } from '../server/core/db/db.ts';
import { ApiError } from '../server/core/http/api-error.ts';
import {
  foreignSegments,
  type PropertyStructure,
  type StructurePair,
  type StructureRoomType,
} from './calendar-structure.ts';

export interface RowIds {
  room_type_id: string;
  rate_plan_id?: string;
}

/** Who is pushing to which property: the multi-property check looks at the caller's other properties. */
export interface BatchScope {
  propertyId: number;
  visiblePropertyIds: readonly number[];
}

interface RefusedRow {
  row: number;
  room_type_id: string;
  rate_plan_id?: string;
}

/**
 * Resolves every row's room type on the property, or refuses the whole batch (spec 7.2): a row naming a
 * room type or rate plan of another property the caller can see is 422 multi_property_batch_not_allowed;
 * otherwise an unresolvable room type is 422 unknown_room_type. The body lists every refused row.
 */
export async function resolveRoomTypes(
  db: Db,
  structure: PropertyStructure,
  scope: BatchScope,
  rows: readonly RowIds[],
): Promise<StructureRoomType[]> {
  const resolved = rows.map((row) => structure.roomType(row.room_type_id));
  await refuseUnknown(db, scope, rows, resolved, []);
  return resolved as StructureRoomType[];
}

/** As resolveRoomTypes, then each row's (rate plan, room type) pair: a missing pair is 422 unknown_room_or_rate. */
export async function resolvePairs(
  db: Db,
  structure: PropertyStructure,
  scope: BatchScope,
  rows: readonly Required<RowIds>[],
): Promise<StructurePair[]> {
  const roomTypes = rows.map((row) => structure.roomType(row.room_type_id));
  const plans = rows.map((row) => structure.ratePlan(row.rate_plan_id));
  await refuseUnknown(db, scope, rows, roomTypes, plans);
  const pairs = rows.map((_, i) => {
    const plan = plans[i];
    const roomType = roomTypes[i];
    return plan && roomType ? structure.pair(plan.id, roomType.id) : undefined;
  });
  const missing = rows.flatMap((row, i) => (pairs[i] ? [] : [refused(row, i)]));
  if (missing.length) throw new ApiError('errors.qc.unknown_room_or_rate', { rows: missing });
  return pairs as StructurePair[];
}

async function refuseUnknown(
  db: Db,
  scope: BatchScope,
  rows: readonly RowIds[],
  roomTypes: readonly unknown[],
  plans: readonly unknown[],
): Promise<void> {
  const unknownRooms = rows.flatMap((row, i) => (roomTypes[i] ? [] : [row.room_type_id]));
  const unknownPlans = rows.flatMap((row, i) => (plans[i] || row.rate_plan_id === undefined ? [] : [row.rate_plan_id]));
  if (!unknownRooms.length && !unknownPlans.length) return;

  const foreign = await foreignSegments(db, scope.visiblePropertyIds, scope.propertyId, {
    roomTypes: [...new Set(unknownRooms)],
    ratePlans: [...new Set(unknownPlans)],
  });
  const elsewhere = rows.flatMap((row, i) =>
    (!roomTypes[i] && foreign.roomTypes.has(row.room_type_id)) ||
    (!plans[i] && row.rate_plan_id !== undefined && foreign.ratePlans.has(row.rate_plan_id))
      ? [refused(row, i)]
      : [],
  );
  if (elsewhere.length) throw new ApiError('errors.qc.multi_property_batch_not_allowed', { rows: elsewhere });
  const unknown = rows.flatMap((row, i) => (roomTypes[i] ? [] : [refused(row, i)]));
  if (unknown.length) throw new ApiError('errors.qc.unknown_room_type', { rows: unknown });
}

function refused(row: RowIds, i: number): RefusedRow {
  return row.rate_plan_id === undefined
    ? { row: i, room_type_id: row.room_type_id }
    : { row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id };
}
