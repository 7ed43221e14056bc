import type { Db } from '../core/db/db.ts';

/**
 * The payment and cancellation policies in effect when the booking was made, frozen on the booking and
 * repeated in its cancellation block. Taken from the rate plan of the booking's first room; a plan without
 * a policy of a kind gets a placeholder entry so the block always has the same shape.
 */
export async function policySnapshot(tx: Db, ratePlanId: number, takenAt: Date): Promise<Record<string, unknown>> {
  const [row] = await tx.sql<{
    rate_plan_id: string;
    pay: Record<string, unknown> | null;
    cancel: Record<string, unknown> | null;
  }>`
    select rp.external_id::text as rate_plan_id,
      case when pp.id is null then null else jsonb_build_object('id', pp.external_id, 'name', pp.name, 'pay_type', pp.pay_type,
        'num_days', pp.num_days, 'date', pp.date, 'is_placeholder', pp.is_placeholder) end as pay,
      case when cp.id is null then null else jsonb_build_object('id', cp.external_id, 'name', cp.name, 'name_tr', cp.name_tr,
        'rules', cp.rules, 'is_placeholder', cp.is_placeholder) end as cancel
    from rate_plans rp
    left join payment_policies pp on pp.id = rp.payment_policy_id
    left join cancellation_policies cp on cp.id = rp.cancellation_policy_id
    where rp.id = ${ratePlanId}`;
  return {
    taken_at: takenAt.toISOString(),
    rate_plan_id: row?.rate_plan_id ?? null,
    payment_policy: row?.pay ?? { id: null, name: 'No payment policy on file', is_placeholder: true },
    cancellation_policy: row?.cancel ?? {
      id: null,
      name: 'No cancellation policy on file',
      rules: [],
      is_placeholder: true,
    },
  };
}
