import { type AvailabilityValue, mergeAvailability } from './availability-writes.ts';
import type { PropertyStructure } from './calendar-structure.ts';
import type { PlannedBatch } from './calendar-tables.ts';
import type { DayWindow } from './calendar-window.ts';
import { DayRows } from './day-rows.ts';

/**
 * One row of legacy `updateAvailability` as data. The legacy service checked its rows one by one in a fixed
 * order and stopped at the first failure, so a row says, stage by stage, whether it passed: its own checks
 * before the room is looked up, its room (one of the property's), its days, and (only when some of its days
 * lie inside the window) its value.
 */
export interface StagedAvailabilityRow {
  /** Refused before its room is looked up. */
  refused?: boolean;
  /** The room the row names, when it names one the caller may write; checked against the turn's structure. */
  roomTypeId?: number;
  /** Its days; absent when they cannot be read. */
  from?: number;
  to?: number;
  /** What it sets; absent when malformed. */
  value?: AvailabilityValue;
}

/** Where the rows stopped: the first failing row and the stage it failed at. */
export interface StagedStop {
  row: number;
  stage: 'refused' | 'unknown_room' | 'bad_dates' | 'bad_value';
}

/**
 * The rows in order up to the first failure, resolved against the structure read in the turn: the valid
 * rows before it become day-rows (later rows win per day and field, as applying them one by one did), and
 * the stop, if any, is answered after they are written. Rows entirely outside the window are skipped
 * without their value being checked, as the legacy service did.
 */
export function stagedAvailabilityTables(
  structure: PropertyStructure,
  rows: readonly StagedAvailabilityRow[],
  window: DayWindow,
): { batch: PlannedBatch; stop?: StagedStop } {
  const availability = new DayRows<number, AvailabilityValue>(mergeAvailability);
  const batch = { tables: { availability }, rows: rows.length, failedRows: 0 };
  for (const [i, row] of rows.entries()) {
    const stage = failedStage(structure, row, window);
    if (stage) return { batch: { ...batch, failedRows: 1 }, stop: { row: i, stage } };
    // A row wholly outside the window with a malformed value is skipped unread; any other row's days outside
    // the window are skipped and counted when the batch is written, as for the modern pushes.
    const roomTypeId = row.roomTypeId as number;
    if (row.value) availability.add(String(roomTypeId), roomTypeId, row.from as number, row.to as number, row.value);
  }
  return { batch };
}

function failedStage(structure: PropertyStructure, row: StagedAvailabilityRow, window: DayWindow) {
  if (row.refused) return 'refused';
  if (row.roomTypeId === undefined || !structure.roomTypeById(row.roomTypeId)) return 'unknown_room';
  if (row.from === undefined || row.to === undefined) return 'bad_dates';
  const inside = Math.max(row.from, window.from) <= Math.min(row.to, window.to);
  if (inside && row.value === undefined) return 'bad_value';
  return undefined;
}
