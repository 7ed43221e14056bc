import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty, resolveRatePlan } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { PlanParams, RateWriteAnswer, RateWriteBody } from './model.ts';
import { writePlanRates } from './write.ts';

/** The per-plan rates write (spec 4.3, last row; the read is show-rates.ts). */
export function registerRates(app: QcApp, deps: Deps) {
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
