import { recordWrite } from '../config-surfaces/config-event.ts';
import { deleteOwned, findOwned, type OwnedRow, updateOwned } from '../config-surfaces/owned-records.ts';
import { ratePlanRefs } from '../config-surfaces/rate-plan-refs.ts';
import type { Db } from '../core/db/db.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { PromotionInput } from './model.ts';
import { type PromotionTerms, promotionTerms } from './rules.ts';

export interface PromotionRow extends OwnedRow, PromotionTerms {
  name: string;
  name_tr: Record<string, string>;
  is_active: boolean;
  /** External ids; empty means every rate plan of the property. */
  rate_plan_ids: string[];
}

/** The stored promotion (none on create) with the fields present replaced, checked as a whole. */
async function merged(db: Db, property: PropertyRow, current: PromotionRow | undefined, input: PromotionInput) {
  const pick = <K extends keyof PromotionTerms>(key: K, fallback: PromotionTerms[K]): PromotionTerms[K] =>
    (input[key] === undefined ? (current?.[key] ?? fallback) : input[key]) as PromotionTerms[K];
  const terms = promotionTerms({
    type: pick('type', 'basic'),
    discount_type: pick('discount_type', 'percent'),
    discount_value: Number(pick('discount_value', 0)),
    stay_from: pick('stay_from', null),
    stay_to: pick('stay_to', null),
    book_from: pick('book_from', null),
    book_to: pick('book_to', null),
    resv_min: pick('resv_min', null),
    resv_max: pick('resv_max', null),
    resv_from_time: pick('resv_from_time', '00:00'),
    resv_to_time: pick('resv_to_time', '24:00'),
    days_before_arrival_min: pick('days_before_arrival_min', null),
    days_before_arrival_max: pick('days_before_arrival_max', null),
  });
  const plans = input.rate_plan_ids
    ? await ratePlanRefs(db, property.id, input.rate_plan_ids, 'promotion')
    : (current?.rate_plan_ids ?? []);
  return {
    ...terms,
    name: input.name ?? current?.name ?? '',
    // Created without name_tr: the name under the default locale, as every created resource (README, name_tr).
    // Renamed without name_tr: one auto-filled from the old name follows the new one (renamedNameTr).
    name_tr: current
      ? (input.name_tr ?? renamedNameTr(current.name_tr, current.name, input.name ?? current.name))
      : nameTrOf(input.name ?? '', input.name_tr),
    is_active: input.is_active ?? current?.is_active ?? true,
    rate_plan_ids: plans,
  };
}

export async function createPromotion(
  tx: Db,
  property: PropertyRow,
  input: PromotionInput,
  now: Date,
): Promise<PromotionRow> {
  const p = await merged(tx, property, undefined, input);
  const [row] = await tx.sql<PromotionRow>`
    insert into promotions (property_id, name, name_tr, type, is_active, discount_type, discount_value, stay_from,
      stay_to, book_from, book_to, resv_min, resv_max, resv_from_time, resv_to_time, days_before_arrival_min,
      days_before_arrival_max, rate_plan_ids, created_at, updated_at)
    values (${property.id}, ${p.name}, ${p.name_tr}, ${p.type}, ${p.is_active}, ${p.discount_type},
      ${p.discount_value}, ${p.stay_from}, ${p.stay_to}, ${p.book_from}, ${p.book_to}, ${p.resv_min}, ${p.resv_max},
      ${p.resv_from_time}, ${p.resv_to_time}, ${p.days_before_arrival_min}, ${p.days_before_arrival_max},
      ${p.rate_plan_ids}::uuid[], ${now}, ${now})
    returning *`;
  return recordWrite(tx, property, { type: 'promotion.created' }, row);
}

/** PATCH: partial; the merged promotion follows the create rules, nothing is written when it fails. */
export async function updatePromotion(
  tx: Db,
  property: PropertyRow,
  id: string,
  input: PromotionInput,
  now: Date,
): Promise<PromotionRow> {
  const current = await findOwned<PromotionRow>(tx, 'promotions', property.id, id, true);
  const p = await merged(tx, property, current, input);
  const row = await updateOwned<PromotionRow>(tx, 'promotions', current.id, p, now, { rate_plan_ids: 'uuid[]' });
  if (!row) return current;
  return recordWrite(tx, property, { type: 'promotion.updated' }, row);
}

export function deletePromotion(tx: Db, property: PropertyRow, id: string, now: Date): Promise<string> {
  return deleteOwned(tx, { table: 'promotions', type: 'promotion.deleted' }, property, id, now);
}
