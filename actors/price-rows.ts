import type { Db } from '../server/core/db/db.ts';
import { ApiError } from '../server/core/http/api-error.ts';
import type { PropertyStructure, StructurePair } from './calendar-structure.ts';
import type { PlannedBatch } from './calendar-tables.ts';
import {
  mergePrices,
  mergeRestrictions,
  type PairTarget,
  type Prices,
  type RestrictionValues,
} from './calendar-writes.ts';
import { DayRows } from './day-rows.ts';
import { Warnings } from './push-warnings.ts';
import { type BatchScope, resolvePairs } from './resolve-rows.ts';

/** The one code of a per_room pair's vocabulary, and what the scalar `rate` shortcut writes. */
const ROOM = 'ROOM';

/** One row of a price push (POST /inventory/rates) as data: the ids it names, its days, what it sets. */
export interface PriceRow {
  room_type_id: string;
  rate_plan_id: string;
  from: number;
  to: number;
  /** The per_room shortcut: the value of the ROOM code. */
  rate?: number;
  prices?: Prices;
  /** The restriction fields the row sets, applied even when its prices are not. */
  restrictions?: RestrictionValues;
}

/**
 * A price push's rows resolved against the structure read in the turn: nightly values only into manual codes
 * of the pair's vocabulary (derived codes and child plans are computed at read time). Codes that cannot take
 * a value are row warnings while the rest of the batch is written; per-code prices on a per_room pair refuse
 * the whole batch.
 */
export async function priceTables(
  tx: Db,
  structure: PropertyStructure,
  scope: BatchScope,
  rows: readonly PriceRow[],
  longestCode: number,
): Promise<PlannedBatch> {
  const pairs = await resolvePairs(tx, structure, scope, rows);
  refuseOccupancyPricing(rows, pairs);
  const warnings = new Warnings();
  const rates = new DayRows<PairTarget, Prices>(mergePrices);
  const restrictions = new DayRows<PairTarget, RestrictionValues>(mergeRestrictions);
  rows.forEach((row, i) => {
    const pair = pairs[i];
    if (!pair) return;
    if (row.restrictions) restrictions.add(pair.key, pair.target, row.from, row.to, row.restrictions);
    const prices = writablePrices(row, i, pair, warnings, longestCode);
    if (prices) rates.add(pair.key, pair.target, row.from, row.to, prices);
  });
  return {
    tables: { rates, restrictions },
    rows: rows.length,
    failedRows: warnings.failedRows,
    warnings: warnings.list,
  };
}

/** Per-code prices on a per_room pair (anything but ROOM) refuse the whole batch: 422 occupancy_pricing_not_supported. */
function refuseOccupancyPricing(rows: readonly PriceRow[], pairs: readonly StructurePair[]): void {
  const refused = rows.flatMap((row, i) =>
    row.prices && pairs[i]?.plan.sellType === 'per_room' && Object.keys(row.prices).some((code) => code !== ROOM)
      ? [{ row: i, room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id }]
      : [],
  );
  if (refused.length) throw new ApiError('errors.qc.occupancy_pricing_not_supported', { rows: refused });
}

/** The codes of a row that may be written, warning about the others; undefined when none may. */
function writablePrices(
  row: PriceRow,
  i: number,
  pair: StructurePair,
  warnings: Warnings,
  longestCode: number,
): Prices | undefined {
  const ids = { room_type_id: row.room_type_id, rate_plan_id: row.rate_plan_id };
  if (pair.plan.parentId !== null) {
    // A child plan's values come from its parent's calendar: the prices belong there.
    warnings.add({
      row: i,
      key: pair.parentMapped ? 'errors.qc.prices_belong_to_parent' : 'errors.qc.price_on_derived_rate',
      ...ids,
      parent_rate_plan_id: pair.plan.parentExternalId,
    });
    return undefined;
  }
  let sent: Prices;
  if (row.rate !== undefined) {
    if (pair.plan.sellType !== 'per_room') {
      warnings.add({ row: i, key: 'errors.qc.prices_map_required', ...ids });
      return undefined;
    }
    sent = { [ROOM]: row.rate };
  } else {
    sent = row.prices ?? {};
  }
  const kept: Prices = {};
  for (const [code, value] of Object.entries(sent)) {
    // A pair with no configured vocabulary takes any code (spec 7.2, unknown_acm_code) that a vocabulary could
    // hold: a blank code, or one longer than any vocabulary takes, was stored and could never be read or priced.
    const kind = pair.kinds.size ? pair.kinds.get(code) : isCode(code, longestCode) ? 'manual' : undefined;
    if (kind === undefined) {
      warnings.add({ row: i, key: 'errors.qc.unknown_acm_code', ...ids, code, allowed_codes: pair.manualCodes });
    } else if (kind !== 'manual') {
      warnings.add({ row: i, key: 'errors.qc.acm_not_priceable', ...ids, code, kind });
    } else {
      kept[code] = value;
    }
  }
  return Object.keys(kept).length ? kept : undefined;
}

/** A code an occupancy vocabulary could hold: not blank (as the per-plan write's `bad_acm_key`), not too long. */
function isCode(code: string, longestCode: number): boolean {
  return code.trim() !== '' && code.length <= longestCode;
}
