import type { Db } from '../core/db/db.ts';
import { fieldError } from '../core/http/api-error.ts';
import { findChildren } from '../core/resolve.ts';

/**
 * The rate plans a promotion or special offer names (external ids or partner codes, resolved by the one
 * resolver among the property's live plans), as external ids in the order given, duplicates dropped. An
 * unknown one is 422 on its path (`rate_plan_ids.2`).
 */
export async function ratePlanRefs(
  db: Db,
  propertyId: number,
  segments: readonly string[],
  resource: string,
  field = 'rate_plan_ids',
): Promise<string[]> {
  const found = await findChildren(db, 'rate_plans', [propertyId], segments);
  const missing = found.findIndex((plan) => !plan);
  if (missing >= 0) throw fieldError(resource, `${field}.${missing}`, 'not_found');
  return [...new Set(found.map((plan) => plan?.external_id as string))];
}
