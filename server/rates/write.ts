import { type CalendarCounters, writeCalendar } from '../../actors/calendar-write.ts';
import type { RowError } from '../../actors/plan-rate-row.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { LONGEST_CODE } from '../inventory/rates-push.ts';
import { parseRateRow } from './write-rows.ts';

/** The write's route name (the event's `endpoint`) and its resource. */
export const PLAN_RATES_WRITE = { name: 'qc.rates.write', resource: 'rate' } as const;

export interface RateWriteAnswer extends CalendarCounters {
  /** Rows applied (written or unchanged); rows outside the window and rows with an error are not. */
  accepted: number;
  errors: RowError[];
}

/**
 * POST /rate_plans/{id}/rates: one day per row, for every pair of the plan (or the row's `room_type_id`).
 * Bad rows are refused one by one with the codes of spec 7.2 and the rest is written by the same calendar
 * write as the inventory pushes (actors/calendar-write.ts, which resolves the plan in the turn): later rows
 * win for the same day, the window applies, a shadow property is a dry run, and a failed write reports
 * every row as write_failed.
 */
export async function writePlanRates(
  deps: Deps,
  property: PropertyRow,
  ratePlan: string,
  values: readonly unknown[],
): Promise<RateWriteAnswer> {
  const outcome = await writeCalendar(deps, property.id, {
    kind: 'plan-rates',
    endpoint: PLAN_RATES_WRITE.name,
    ratePlan,
    longestCode: LONGEST_CODE,
    rows: values.map(parseRateRow),
  });
  return { accepted: outcome.accepted, ...outcome.counters, errors: outcome.rowErrors };
}
