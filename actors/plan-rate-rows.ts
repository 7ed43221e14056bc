import { notFound } from '../server/core/http/api-error.ts';
import { checkDayRowLimit, checkRowLimit } from './batch-limits.ts';
import type { PropertyStructure, StructurePair } from './calendar-structure.ts';
import type { PlannedBatch } from './calendar-tables.ts';
import type { DayWindow } from './calendar-window.ts';
import {
  mergePrices,
  mergeRestrictions,
  type PairTarget,
  type Prices,
  type RestrictionValues,
} from './calendar-writes.ts';
import { DayRows } from './day-rows.ts';
import type { RateRow, RowError } from './plan-rate-row.ts';

/**
 * The per-plan write's rows resolved against the structure read in the turn: the plan (resolved here, once;
 * unknown is 404), then each valid row's day on each pair it targets; rows the plan's structure refuses
 * become row errors. `acceptedRows` counts the valid rows whose day lies in the window.
 */
export function planRateTables(
  structure: PropertyStructure,
  ratePlan: string,
  parsed: readonly (RateRow | RowError)[],
  window: DayWindow,
  longestCode: number,
): PlannedBatch {
  const plan = structure.ratePlan(ratePlan);
  if (!plan) throw notFound();
  checkRowLimit(parsed.length);
  const errors: RowError[] = [];
  const rates = new DayRows<PairTarget, Prices>(mergePrices);
  const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
  let dayRows = 0;
  let acceptedRows = 0;
  for (const row of parsed) {
    if ('code' in row) {
      errors.push(row);
      continue;
    }
    const targets = targetsOf(structure, plan.id, row);
    const refused = Array.isArray(targets) ? refusal(row, targets, plan.parentId !== null, longestCode) : targets;
    if (refused || !Array.isArray(targets)) {
      if (refused) errors.push(refused);
      continue;
    }
    if (row.day >= window.from && row.day <= window.to) acceptedRows++;
    for (const pair of targets) {
      if (row.prices) rates.add(pair.key, pair.target, row.day, row.day, row.prices);
      if (row.restrictions) restrictions.add(pair.key, pair.target, row.day, row.day, row.restrictions);
      dayRows++;
    }
  }
  checkDayRowLimit(dayRows);
  return {
    tables: { rates, restrictions },
    rows: parsed.length,
    failedRows: errors.length,
    rowErrors: errors,
    acceptedRows,
  };
}

/** After a failed bulk write (nothing written): every row that passed the checks is a write_failed row error. */
export function writeFailedRows(batch: PlannedBatch, parsed: readonly (RateRow | RowError)[], detail: string) {
  const errors = [...(batch.rowErrors ?? [])];
  const refused = new Set(errors.map((e) => e.row));
  for (const row of parsed) {
    if (!('code' in row) && !refused.has(row.row))
      errors.push({ row: row.row, code: 'write_failed', date: row.date, message: detail });
  }
  return errors;
}

/** The pairs a row writes to: the plan's pair for its room type, or every pair of the plan. */
function targetsOf(structure: PropertyStructure, planId: number, row: RateRow): StructurePair[] | RowError {
  const pairs = structure.pairsOf(planId);
  if (row.roomTypeId === undefined) return pairs;
  const roomType = structure.roomType(row.roomTypeId);
  const pair = roomType && pairs.find((p) => p.roomType.id === roomType.id);
  if (!pair) {
    return {
      row: row.row,
      code: 'unknown_room_type',
      date: row.date,
      room_type_id: row.roomTypeId,
      message: 'room type not sold by this rate plan',
    };
  }
  return [pair];
}

/** Why a parsed row cannot be written to these pairs: prices on a child plan, or a code the pair does not take. */
function refusal(
  row: RateRow,
  targets: readonly StructurePair[],
  child: boolean,
  longestCode: number,
): RowError | undefined {
  if (!row.prices) return undefined;
  if (child) {
    return {
      row: row.row,
      code: 'price_on_derived_rate',
      date: row.date,
      message: 'a child plan takes no prices; send restrictions in a row of their own',
    };
  }
  for (const pair of targets) {
    // A pair with no configured vocabulary skips the check (spec 7.2), for codes a vocabulary could hold: a
    // longer one was stored where no vocabulary could ever price or read it, so it is refused as a blank one is.
    if (!pair.kinds.size) {
      const tooLong = Object.keys(row.prices).find((code) => code.length > longestCode);
      if (tooLong === undefined) continue;
      const message = `occupancy key ${tooLong} is longer than ${longestCode} characters`;
      return { row: row.row, code: 'bad_acm_key', field: 'prices', date: row.date, message };
    }
    for (const code of Object.keys(row.prices)) {
      if (pair.kinds.get(code) !== 'manual') {
        return {
          row: row.row,
          code: 'unknown_acm_code',
          date: row.date,
          room_type_id: pair.roomType.externalId,
          unknown_code: code,
          allowed_codes: pair.manualCodes,
        };
      }
    }
  }
  return undefined;
}
