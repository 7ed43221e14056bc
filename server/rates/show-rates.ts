import { ok } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { MAX_READ_DAYS, readRange } from '../inventory/read-range.ts';
import { pathRatePlan } from '../rate-plans/path-rate-plan.ts';
import { PlanParams, RatesAnswer, RatesQuery } from './model.ts';
import { readPlanRates } from './read.ts';

const RESOURCE = 'rate';

export const showRates = defineRoute({
  name: 'qc.rates.show',
  method: 'GET',
  path: '/properties/:property/rate_plans/:ratePlan/rates',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: RESOURCE,
  summary: 'Resolved per-code prices per day',
  tags: ['rates'],
  description: `Every day of from..to (at most ${MAX_READ_DAYS} days) per room type of the plan: \`values[]\` of {date, prices,
restrictions}, each code priced by the one pricing engine (manual as stored, derived from its base, fee, cost_free 0;
inactive and unpriced codes absent; a child plan from its parent's values and percentage; every price rounded to
cents half away from zero and never below 0). With consolidated=1: \`periods[]\` of {from, to, prices} merging equal
consecutive days, days without any price left out.`,
  params: PlanParams,
  query: RatesQuery,
  response: RatesAnswer,
  errors: ['errors.not_found'],
  pathRecord: pathRatePlan,
  handle: inProperty(async ({ deps, principal, query }, property, plan) => {
    const range = readRange(query, RESOURCE);
    const consolidated = query.consolidated === '1' || query.consolidated === 'true';
    // Lag-tolerant: the read replica when configured and keeping up (docs/operations.md, Read replica).
    const db = deps.reads.for(principal.clientPk);
    return ok(await readPlanRates(db, property.id, plan.external_id, range, consolidated));
  }),
});
