import type { Db } from '../core/db/db.ts';

/**
 * External ids of the live rate plans that point at a policy. Call after locking the property row
 * (rate plan creation locks it too), so no plan can start using the policy between this check and its delete.
 */
export async function plansUsingPolicy(
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
