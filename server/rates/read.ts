import {
  loadStructure,
  type PropertyStructure,
  type StructurePair,
  type StructureRatePlan,
} from '../../actors/calendar-structure.ts';
import { type Prices, RESTRICTION_FIELDS, type RestrictionValues } from '../../actors/calendar-writes.ts';
import { type PairPricing, resolveDay } from '../../pricing/price-engine.ts';
import { formatDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';

export interface DayValues {
  date: string;
  prices: Prices;
  restrictions: RestrictionValues;
}

export interface PricePeriod {
  from: string;
  to: string;
  prices: Prices;
}

export interface PairRates {
  room_type_id: string;
  values?: DayValues[];
  periods?: PricePeriod[];
}

export interface PlanRates {
  rate_plan_id: string;
  parent_rate_plan_id: string | null;
  sell_type: string;
  from: string;
  to: string;
  consolidated: boolean;
  rooms: PairRates[];
}

/**
 * GET /rate_plans/{id}/rates: every day of from..to for every pair of the plan, each code resolved (manual,
 * derived, fee, cost_free; a child plan from its parent's calendar and percentage) with the plan's own
 * restrictions. `consolidated` instead merges equal consecutive days into {from, to, prices} periods per
 * pair, leaving out days with no price at all.
 */
export async function readPlanRates(
  db: Db,
  propertyId: number,
  planId: string,
  { from, to }: { from: number; to: number },
  consolidated: boolean,
): Promise<PlanRates> {
  const structure = await loadStructure(db, propertyId);
  const plan = structure.ratePlan(planId);
  if (!plan) throw notFound();
  const pairs = structure.pairsOf(plan.id);
  const sourcePlanId = plan.parentId ?? plan.id;
  const [fromText, toText] = [formatDay(from), formatDay(to)];

  // The plan's days in one range of the key per month partition; rows of room types outside the plan's pairs
  // are never looked up below. Filtered by room type in SQL, the generic plan probed each room type in each
  // month (bench:volume, as the availability read).
  const stored = await db.sql<{ room_type_id: number; date: string; prices: Prices }>`
    select room_type_id, date, prices from rates
    where property_id = ${propertyId} and rate_plan_id = ${sourcePlanId}
      and date between ${fromText}::date and ${toText}::date`;
  const restrictionRows = await db.sql<{ room_type_id: number; date: string } & Record<string, unknown>>`
    select room_type_id, date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure from restrictions
    where property_id = ${propertyId} and rate_plan_id = ${plan.id}
      and date between ${fromText}::date and ${toText}::date`;
  const pricesOf = new Map(stored.map((r) => [`${r.room_type_id}:${r.date}`, r.prices]));
  const restrictionsOf = new Map(restrictionRows.map((r) => [`${r.room_type_id}:${r.date}`, setFields(r)]));

  const rooms = pairs.map((pair): PairRates => {
    const values: DayValues[] = [];
    const pricing = pairPricing(structure, plan, pair);
    for (let day = from; day <= to; day++) {
      const date = formatDay(day);
      const key = `${pair.roomType.id}:${date}`;
      const prices = resolveDay(pricing, pricesOf.get(key), date);
      values.push({ date, prices, restrictions: restrictionsOf.get(key) ?? {} });
    }
    return consolidated
      ? { room_type_id: pair.roomType.externalId, periods: periodsOf(values) }
      : { room_type_id: pair.roomType.externalId, values };
  });
  return {
    rate_plan_id: plan.externalId,
    parent_rate_plan_id: plan.parentExternalId,
    sell_type: plan.sellType,
    from: fromText,
    to: toText,
    consolidated,
    rooms,
  };
}

/** How the engine prices a pair: its own vocabulary, or for a child the parent's pair for the same room (none if unmapped). */
function pairPricing(structure: PropertyStructure, plan: StructureRatePlan, pair: StructurePair): PairPricing {
  if (plan.parentId === null) return { vocabulary: pair.occupancies, isChild: false };
  const vocabulary = structure.pair(plan.parentId, pair.roomType.id)?.occupancies;
  return { vocabulary, derivation: plan.derivation, isChild: true };
}

function setFields(row: Record<string, unknown>): RestrictionValues {
  const values: Record<string, unknown> = {};
  for (const field of RESTRICTION_FIELDS)
    if (row[field] !== null && row[field] !== undefined) values[field] = row[field];
  return values as RestrictionValues;
}

function periodsOf(values: readonly DayValues[]): PricePeriod[] {
  const periods: PricePeriod[] = [];
  let current: (PricePeriod & { key: string }) | undefined;
  for (const { date, prices } of values) {
    if (!Object.keys(prices).length) {
      current = undefined;
      continue;
    }
    const key = JSON.stringify(prices);
    if (current && current.key === key) {
      current.to = date;
    } else {
      current = { from: date, to: date, prices, key };
      periods.push(current);
    }
  }
  return periods.map(({ from, to, prices }) => ({ from, to, prices }));
}
