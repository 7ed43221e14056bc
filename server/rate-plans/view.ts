import type { PairRow, PlanRow } from './store.ts';
import type { OccupancyEntry } from './vocabulary.ts';

/**
 * A rate plan entry (spec 2.4), one per (rate plan x room type) pair: `id` equals the external rate plan
 * id, `room_type_id` is the pair's room type. A child plan's entry has no `occupancies` (its prices come
 * from the parent) and shows its `derivation` instead.
 */
export function ratePlanEntry(row: PairRow) {
  const child = row.parent_id !== null;
  return {
    external_rate_plan_id: row.external_id,
    id: row.external_id,
    name: row.name,
    name_tr: row.name_tr,
    room_type_id: row.room_external_id,
    parent_rate_plan_id: row.parent_external_id,
    sell_type: row.sell_type,
    prices_writable: !child,
    meal_plan: row.meal_plan,
    partner_code: row.partner_code,
    ...(child
      ? { derivation: row.derivation }
      : { occupancies: row.occupancies.map(occupancyView), explicit_occupancies: row.explicit_occupancies }),
  };
}

/**
 * One rate plan as GET one, POST and PATCH answer it: the plan's own fields and `rate_plans[]`, its pair
 * entries exactly as the list answers them (spec 4.3: "entry with occupancies[] per pair"), so a partner
 * reads single and list answers with one parser. `mappings` is the same array under its old name, kept for
 * partners that read it before `rate_plans` existed (deprecated; v1 changes are additive only, spec 9.1).
 */
export function ratePlanView(plan: PlanRow, pairs: readonly PairRow[]) {
  const entries = pairs.map(ratePlanEntry);
  return {
    external_rate_plan_id: plan.external_id,
    id: plan.external_id,
    name: plan.name,
    name_tr: plan.name_tr,
    sell_type: plan.sell_type,
    parent_rate_plan_id: plan.parent_external_id,
    prices_writable: plan.parent_id === null,
    derivation: plan.derivation,
    meal_plan: plan.meal_plan,
    partner_code: plan.partner_code,
    payment_policy_id: plan.payment_policy_external_id,
    cancellation_policy_id: plan.cancellation_policy_external_id,
    room_type_ids: pairs.map((p) => p.room_external_id),
    rate_plans: entries,
    mappings: entries,
  };
}

/** jsonb stores keys in its own order; answer them in the spec's reading order. */
function occupancyView(e: OccupancyEntry): OccupancyEntry {
  const out: OccupancyEntry = { code: e.code, kind: e.kind };
  if (e.persons !== undefined) out.persons = e.persons;
  if (e.derived_from !== undefined) out.derived_from = e.derived_from;
  if (e.modifier !== undefined) out.modifier = e.modifier;
  if (e.fee !== undefined) out.fee = e.fee;
  if (e.from_age !== undefined) out.from_age = e.from_age;
  if (e.to_age !== undefined) out.to_age = e.to_age;
  return out;
}
