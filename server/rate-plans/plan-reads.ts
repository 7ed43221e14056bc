import type { Db } from '../core/db/db.ts';
import { countPairs, pairsOfPlan, pairsOfProperty, planRow } from './store.ts';
import { ratePlanEntry, ratePlanView } from './view.ts';

/** One page of a property's (rate plan x room type) entries and how many pairs there are. */
export async function listRatePlanEntries(db: Db, propertyId: number, page: number, perPage: number) {
  const [total, rows] = await Promise.all([
    countPairs(db, propertyId),
    pairsOfProperty(db, propertyId, perPage, (page - 1) * perPage),
  ]);
  return { entries: rows.map(ratePlanEntry), total };
}

/** One rate plan with its pairs, as GET one, POST and PATCH answer it. */
export async function showRatePlan(db: Db, propertyId: number, planId: number) {
  const [row, pairs] = await Promise.all([planRow(db, planId), pairsOfPlan(db, propertyId, planId)]);
  return ratePlanView(row, pairs);
}
