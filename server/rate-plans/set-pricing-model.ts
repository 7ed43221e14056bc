import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PricingModelBody, PricingModelResultSchema, RatePlanParams, VOCABULARY_DOC } from './model.ts';
import { pathRatePlan } from './path-rate-plan.ts';
import { setPricingModel as applyModel } from './plan-writes.ts';

export const setPricingModel = defineRoute({
  name: 'qc.rate_plans.pricing_model',
  method: 'PUT',
  path: '/properties/:property/rate_plans/:ratePlan/pricing-model',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'rate_plan',
  summary: 'Reset the pricing model of every pair',
  tags: ['rate plans'],
  description: [
    'Sets `sell_type` and re-derives the vocabulary of every non-deleted pair; `occupancies[]` (wire form as on',
    'create) narrows each pair to the listed codes valid for its room (any number of room types here).',
    'Idempotent: the same body gives the same state and the same answer `{rate_plan_id, sell_type,',
    'pairs_updated, explicit_occupancies}`, where `pairs_updated` counts the pairs walked and',
    '`explicit_occupancies` tells whether the list applied to at least one pair. A child (derivative) plan is',
    'skipped: `pairs_updated: 0` and `skipped: "derived_plan"`; its vocabulary follows the parent\'s.',
    `Records \`rate_plan.updated\` only when something changed. ${VOCABULARY_DOC}`,
  ].join(' '),
  params: RatePlanParams,
  body: PricingModelBody,
  response: okSchema(PricingModelResultSchema),
  errors: ['errors.not_found'],
  pathRecord: pathRatePlan,
  handle: inProperty(async ({ deps, body }, property, plan) => {
    return ok(await applyModel(deps.db, property, plan, body));
  }),
});
