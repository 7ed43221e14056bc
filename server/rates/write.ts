import {
  type CalendarCounters,
  CalendarWriteError,
  type PushOutcome,
  pushCalendar,
  recordPushCompleted,
} from '../../actors/calendar-push.ts';
import { acceptedWindow } from '../../actors/calendar-window.ts';
import {
  mergePrices,
  mergeRestrictions,
  type PairTarget,
  type Prices,
  type RestrictionValues,
} from '../../actors/calendar-writes.ts';
import { DayRows } from '../../actors/day-rows.ts';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { checkDayRowLimit, checkRowLimit } from '../inventory/batch.ts';
import {
  loadStructure,
  type PropertyStructure,
  type StructurePair,
  type StructureRatePlan,
} from '../inventory/structure.ts';
import { parseRateRow, type RateRow, type RowError } from './write-rows.ts';

/** The write's route name (the event's `endpoint`) and its resource. */
export const PLAN_RATES_WRITE = { name: 'qc.rates.write', resource: 'rate' } as const;

export interface RateWriteAnswer extends CalendarCounters {
  /** Rows applied (written or unchanged); rows outside the window and rows with an error are not. */
  accepted: number;
  errors: RowError[];
}

/**
 * POST /rate_plans/{id}/rates: one day per row, for every pair of the plan (or the row's `room_type_id`).
 * Bad rows are refused one by one with the codes of spec 7.2 and the rest is written through the same
 * actor pipeline as the inventory pushes: later rows win for the same day, the window applies, a shadow
 * property is a dry run, and a failed write reports every row as write_failed.
 */
export async function writePlanRates(
  deps: Deps,
  property: PropertyRow,
  planId: string,
  values: readonly unknown[],
): Promise<RateWriteAnswer> {
  checkRowLimit(values.length);
  const parsed = values.map(parseRateRow);
  let acceptedRows = 0;
  const endpoint = PLAN_RATES_WRITE.name;
  const outcome = await pushCalendar(deps, property.id, {
    endpoint,
    plan: async (tx, current) => {
      const structure = await loadStructure(tx, property.id);
      const plan = structure.ratePlan(planId);
      if (!plan) throw notFound();
      const window = acceptedWindow(current.timezone, deps.clock.now());
      const batch = expandRows(structure, plan, parsed);
      acceptedRows = batch.valid.filter((row) => row.day >= window.from && row.day <= window.to).length;
      return { tables: batch.tables, rows: values.length, failedRows: batch.errors.length, report: batch.errors };
    },
  }).catch((err) => writeFailed(deps, endpoint, parsed, err));

  const errors = [...outcome.report].sort((a, b) => a.row - b.row);
  const failedWrite = errors.some((e) => e.code === 'write_failed');
  return { accepted: outcome.counters.dry || failedWrite ? 0 : acceptedRows, ...outcome.counters, errors };
}

/** Each valid row's day on each pair it targets; rows refused by the plan's structure become row errors. */
function expandRows(structure: PropertyStructure, plan: StructureRatePlan, parsed: readonly (RateRow | RowError)[]) {
  const errors: RowError[] = [];
  const valid: RateRow[] = [];
  const rates = new DayRows<PairTarget, Prices>(mergePrices);
  const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
  let dayRows = 0;
  for (const row of parsed) {
    if ('code' in row) {
      errors.push(row);
      continue;
    }
    const targets = targetsOf(structure, plan.id, row);
    const refused = Array.isArray(targets) ? refusal(row, targets, plan.parentId !== null) : targets;
    if (refused || !Array.isArray(targets)) {
      if (refused) errors.push(refused);
      continue;
    }
    valid.push(row);
    for (const pair of targets) {
      if (row.prices) rates.add(pair.key, pair.target, row.day, row.day, row.prices);
      if (row.restrictions) restrictions.add(pair.key, pair.target, row.day, row.day, row.restrictions);
      dayRows++;
    }
  }
  checkDayRowLimit(dayRows);
  return { tables: { rates, restrictions }, errors, valid };
}

/**
 * The bulk write failed and its turn rolled back: every row that was valid is reported as write_failed with
 * the database's message, and the push event is recorded in a turn of its own (nothing was written).
 */
async function writeFailed(
  deps: Deps,
  endpoint: string,
  parsed: readonly (RateRow | RowError)[],
  err: unknown,
): Promise<PushOutcome<RowError[]>> {
  if (!(err instanceof CalendarWriteError)) throw err;
  const failure = err as CalendarWriteError<RowError[]>;
  const errors = [...failure.batch.report];
  const refused = new Set(errors.map((e) => e.row));
  for (const row of parsed) {
    if (!('code' in row) && !refused.has(row.row))
      errors.push({ row: row.row, code: 'write_failed', date: row.date, message: failure.detail });
  }
  // A dry run's failure rolled back with it: a shadow property records nothing, live or not.
  if (failure.property.mode === 'shadow') {
    const none = { written: 0, unchanged: 0, skipped_out_of_window: 0 };
    return { counters: { ...none, dry: true, would: none }, report: errors };
  }
  const counters = { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: false };
  await deps.actors.run(failure.property.id, (tx) =>
    recordPushCompleted(tx, failure.property, endpoint, failure.batch.rows, failure.batch.rows, counters),
  );
  return { counters, report: errors };
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
function refusal(row: RateRow, targets: readonly StructurePair[], child: boolean): RowError | undefined {
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
    // A pair with no configured vocabulary skips the check (spec 7.2).
    if (!pair.kinds.size) continue;
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
