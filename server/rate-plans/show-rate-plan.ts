import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ENTRY_DOC, PLAN_DOC, RatePlanParams, RatePlanSchema } from './model.ts';
import { pathRatePlan } from './path-rate-plan.ts';
import { showRatePlan as readPlan } from './plan-reads.ts';

export const showRatePlan = defineRoute({
  name: 'qc.rate_plans.show',
  method: 'GET',
  path: '/properties/:property/rate_plans/:ratePlan',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: 'rate_plan',
  summary: 'One rate plan with occupancies per pair',
  tags: ['rate plans'],
  description: `${PLAN_DOC} ${ENTRY_DOC}`,
  params: RatePlanParams,
  response: okSchema(RatePlanSchema),
  errors: ['errors.not_found'],
  pathRecord: pathRatePlan,
  handle: inProperty(async ({ deps }, property, plan) => {
    return ok(await readPlan(deps.db, property.id, plan.id));
  }),
});
