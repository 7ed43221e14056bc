import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty, resolveRatePlan } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { readRange } from '../inventory/read-range.ts';
import { loadStructure } from '../inventory/structure.ts';
import { PlanParams, RatesAnswer, RatesQuery, RateWriteAnswer, RateWriteBody } from './model.ts';
import { readPlanRates } from './read.ts';
import { writePlanRates } from './write.ts';

/** The per-plan rates read and write (spec 4.3, last two rows). */
export function registerRates(app: QcApp, deps: Deps) {
  app.get(
    routes.ratesShow.path,
    async ({ principal, params, query }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const plan = await resolveRatePlan(deps.db, property.id, params.ratePlan);
      const range = readRange(query, routes.ratesShow.resource);
      const consolidated = query.consolidated === '1' || query.consolidated === 'true';
      const structure = await loadStructure(deps.db, property.id);
      return ok(await readPlanRates(deps.db, structure, plan.external_id, range.from, range.to, consolidated));
    },
    {
      qc: routes.ratesShow,
      params: PlanParams,
      query: RatesQuery,
      response: { 200: RatesAnswer },
      detail: {
        summary: routes.ratesShow.summary,
        description: `Every day of from..to (at most 732 days) per room type of the plan: \`values[]\` of {date, prices,
restrictions}, each code resolved (manual as stored, derived from its base, fee, cost_free 0; inactive and unpriced
codes absent; a child plan from its parent's values and percentage). With consolidated=1: \`periods[]\` of
{from, to, prices} merging equal consecutive days, days without any price left out.`,
        tags: ['rates'],
      },
    },
  );
  app.post(
    routes.ratesWrite.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const plan = await resolveRatePlan(deps.db, property.id, params.ratePlan);
      return ok(await writePlanRates(deps, property, plan.external_id, body.values));
    },
    {
      qc: routes.ratesWrite,
      params: PlanParams,
      body: RateWriteBody,
      response: { 200: RateWriteAnswer },
      detail: {
        summary: routes.ratesWrite.summary,
        description: `Rows {date, prices?, restrictions?, room_type_id?} (at most 1000): each row writes its day on every
room type of the plan, or on room_type_id. Answers 200 with the accepted row count, the day-row counters and
errors[] per refused row (codes of spec 7.2). A child plan takes restrictions only. Shadow: dry, counters 0.`,
        tags: ['rates'],
      },
    },
  );
}
