import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ENTRY_DOC, PLAN_DOC, RatePlanParams, RatePlanSchema, UpdateRatePlanBody } from './model.ts';
import { pathRatePlan } from './path-rate-plan.ts';
import { changeRatePlan } from './plan-writes.ts';

export const updateRatePlan = defineRoute({
  name: 'qc.rate_plans.update',
  method: 'PATCH',
  path: '/properties/:property/rate_plans/:ratePlan',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'rate_plan',
  summary: 'Update a rate plan (sell_type flips re-derive vocabularies)',
  tags: ['rate plans'],
  description: [
    "Only the fields present change. A different `sell_type` flips the plan and re-derives every pair's",
    'vocabulary from its room; explicit occupancies are discarded (set them again with PUT pricing-model),',
    "so flipping and flipping back restores the computed vocabulary. Child plans follow their parent's sell",
    'type (changing it on a child: 422). `payment_policy_id` / `cancellation_policy_id` move the plan to another',
    'live policy of this property (422 rule `not_found` otherwise): the way to free a policy whose DELETE answers',
    '409 `errors.qc.payment_policy_in_use` / `errors.qc.cancellation_policy_in_use`; bookings already made keep',
    'the policies frozen in their snapshot. Records `rate_plan.updated` when the sell type changes.',
    'Renamed (`title`) without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`)',
    'follows the new name; one you set is kept.',
    PLAN_DOC,
    ENTRY_DOC,
  ].join(' '),
  params: RatePlanParams,
  body: UpdateRatePlanBody,
  response: okSchema(RatePlanSchema),
  errors: ['errors.not_found', 'errors.qc.partner_code_taken'],
  pathRecord: pathRatePlan,
  handle: inProperty(async ({ deps, body }, property, plan) => {
    return ok(await changeRatePlan(deps.db, property, plan, body));
  }),
});
