import { ok } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { BATCH_LIMIT_FIELDS } from '../inventory/refused-rows.ts';
import { pathRatePlan } from '../rate-plans/path-rate-plan.ts';
import { PlanParams, RateWriteAnswer, RateWriteBody } from './model.ts';
import { PLAN_RATES_WRITE, writePlanRates } from './write.ts';

export const writeRatesRoute = defineRoute({
  ...PLAN_RATES_WRITE,
  method: 'POST',
  path: '/properties/:property/rate_plans/:ratePlan/rates',
  scope: 'inventory.write',
  bucket: 'inventory-writes',
  principals: 'untouched',
  summary: 'Per-plan rate write',
  tags: ['rates'],
  description: `Rows {date, prices?, restrictions?, room_type_id?} (at most 1000): each row writes its day on every
room type of the plan, or on room_type_id. Answers 200 with the accepted row count, the day-row counters and
errors[] per refused row (codes of spec 7.2). A child plan takes restrictions only. Shadow: dry, counters 0, and
would {written, unchanged, skipped_out_of_window} says what the write would have done had the property been live.`,
  params: PlanParams,
  body: RateWriteBody,
  response: RateWriteAnswer,
  errors: ['errors.not_found', 'errors.qc.batch_too_large'],
  errorFields: { 422: BATCH_LIMIT_FIELDS },
  // Checked before the body; the write resolves the plan again in its property's turn, with the structure it loads.
  pathRecord: pathRatePlan,
  handle: inProperty(async ({ deps, params, body }, property) => {
    return ok(await writePlanRates(deps, property, params.ratePlan, body.values));
  }),
});
