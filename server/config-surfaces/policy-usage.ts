import type { Db } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { lockStructure } from '../rate-plans/service.ts';
import { deleteOwned } from './owned-records.ts';

/**
 * Spec 4.7: a payment or cancellation policy goes only while no live rate plan uses it; otherwise 409
 * `errors.qc.<policy>_in_use` listing the plans. The property row is locked first (rate plan creation locks
 * it too), so no plan can start using the policy between the check and the delete.
 */
export async function deleteUnusedPolicy(
  tx: Db,
  record:
    | { table: 'payment_policies'; type: 'payment_policy.deleted' }
    | { table: 'cancellation_policies'; type: 'cancellation_policy.deleted' },
  property: PropertyRow,
  id: string,
  now: Date,
): Promise<string> {
  await lockStructure(tx, property.id);
  const policy = record.table === 'payment_policies' ? 'payment_policy' : 'cancellation_policy';
  return deleteOwned(tx, record, property, id, now, async (row) => {
    const plans = await plansUsingPolicy(tx, `${policy}_id`, row.id);
    if (plans.length)
      throw new ApiError(
        policy === 'payment_policy' ? 'errors.qc.payment_policy_in_use' : 'errors.qc.cancellation_policy_in_use',
        { rate_plan_ids: plans },
      );
  });
}

/** External ids of the live rate plans that point at a policy. */
async function plansUsingPolicy(
  tx: Db,
  column: 'payment_policy_id' | 'cancellation_policy_id',
  policyId: number,
): Promise<string[]> {
  const rows = await tx.query<{ external_id: string }>(
    `select external_id from rate_plans where ${column} = $1 and deleted_at is null order by id`,
    [policyId],
  );
  return rows.map((r) => r.external_id);
}
