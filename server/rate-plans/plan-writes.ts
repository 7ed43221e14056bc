import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { fieldError, validationError } from '../core/http/api-error.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { uniquePartnerCode } from '../properties/partner-code.ts';
import { createRequest } from './create-request.ts';
import { explicitOccupancyErrors } from './explicit-occupancies.ts';
import type { CreateRatePlanBody, PricingModelBody, UpdateRatePlanBody } from './model.ts';
import { showRatePlan } from './plan-reads.ts';
import { explicitPolicy } from './policies.ts';
import { applyPricingModel } from './pricing-model.ts';
import { createRatePlan, lockStructure, type RatePlanRecord } from './service.ts';

/**
 * POST rate_plans: validates and resolves the request, then creates plan and pairs in one transaction. `inTx`
 * runs last in it with the plan as shown (the route keeps its Idempotency-Key there).
 */
export async function addRatePlan(
  db: Db,
  principal: Principal,
  property: PropertyRow,
  body: typeof CreateRatePlanBody.static,
  inTx: (tx: Db, shown: Awaited<ReturnType<typeof showRatePlan>>) => Promise<void> = async () => {},
) {
  const input = await createRequest(db, principal, property, body);
  return db.tx(async (tx) => {
    const plan = await createRatePlan(tx, property, input);
    const shown = await showRatePlan(tx, property.id, plan.id);
    await inTx(tx, shown);
    return shown;
  });
}

/**
 * PATCH a rate plan: only the fields present change; a different sell type flips the plan and re-derives
 * every pair's vocabulary (a child follows its parent's sell type: 422). New policy ids are how a partner
 * frees a policy it wants to delete (the DELETE's 409 says to point the plans elsewhere).
 */
export async function changeRatePlan(
  db: Db,
  property: PropertyRow,
  plan: RatePlanRecord,
  body: typeof UpdateRatePlanBody.static,
) {
  if (body.sell_type && plan.parent_id !== null && body.sell_type !== plan.sell_type) {
    throw fieldError('rate_plan', 'sell_type', 'follows_parent');
  }
  // A name_tr sent empty follows the creation rule: the (new) name under the default locale.
  // Renamed without name_tr: one auto-filled from the old name follows the new one (renamedNameTr).
  const nameTr =
    body.name_tr !== undefined
      ? nameTrOf(body.title ?? plan.name, body.name_tr)
      : body.title !== undefined
        ? renamedNameTr(plan.name_tr, plan.name, body.title)
        : null;
  return db.tx(async (tx) => {
    // Under the structure lock a policy DELETE takes too, so a policy cannot go between this check and the write.
    await lockStructure(tx, property.id);
    const paymentPolicyId = body.payment_policy_id
      ? await explicitPolicy(tx, 'payment_policies', property.id, body.payment_policy_id, 'payment_policy_id')
      : null;
    const cancellationPolicyId = body.cancellation_policy_id
      ? await explicitPolicy(
          tx,
          'cancellation_policies',
          property.id,
          body.cancellation_policy_id,
          'cancellation_policy_id',
        )
      : null;
    await uniquePartnerCode(async () => {
      const [row] = await tx.sql<{ id: number }>`
        update rate_plans set
          name = coalesce(${body.title ?? null}, name),
          name_tr = coalesce(${nameTr}::jsonb, name_tr),
          meal_plan = coalesce(${body.meal_plan ?? null}, meal_plan),
          payment_policy_id = coalesce(${paymentPolicyId}::bigint, payment_policy_id),
          cancellation_policy_id = coalesce(${cancellationPolicyId}::bigint, cancellation_policy_id),
          partner_code = case when ${body.partner_code !== undefined} then ${body.partner_code ?? null} else partner_code end,
          updated_at = now()
        where id = ${plan.id} returning id`;
      return row;
    });
    // The same sell type again is no flip: explicit occupancies stay.
    const [current] = await tx.sql<{ sell_type: string }>`select sell_type from rate_plans where id = ${plan.id}`;
    if (body.sell_type && body.sell_type !== current?.sell_type) {
      await applyPricingModel(tx, property, plan.id, body.sell_type, undefined);
    }
    return showRatePlan(tx, property.id, plan.id);
  });
}

/** PUT pricing-model: a child plan is skipped (its vocabulary follows the parent's). */
export async function setPricingModel(
  db: Db,
  property: PropertyRow,
  plan: RatePlanRecord,
  body: typeof PricingModelBody.static,
) {
  if (body.occupancies) {
    const errors = explicitOccupancyErrors(body.occupancies, 'rate_plan');
    if (Object.keys(errors).length) throw validationError(errors);
  }
  const base = { rate_plan_id: plan.external_id };
  if (plan.parent_id !== null) {
    return {
      ...base,
      sell_type: plan.sell_type,
      pairs_updated: 0,
      explicit_occupancies: false,
      skipped: 'derived_plan' as const,
    };
  }
  const result = await db.tx((tx) => applyPricingModel(tx, property, plan.id, body.sell_type, body.occupancies));
  return {
    ...base,
    sell_type: body.sell_type,
    pairs_updated: result.pairsUpdated,
    explicit_occupancies: result.explicitOccupancies,
  };
}
