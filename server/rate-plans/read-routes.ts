import type { Deps } from '../core/deps.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty, resolveRatePlan } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { RatePlanParams } from './model.ts';
import { countPairs, pairsOfPlan, pairsOfProperty, planRow } from './store.ts';
import { ratePlanEntry, ratePlanView } from './view.ts';

const PER_PAGE = 200;
export const ENTRY_DOC = [
  'Each pair entry carries `id` (= `external_rate_plan_id`), `room_type_id` (a rate plan id is valid only with',
  "its own room type ids), `parent_rate_plan_id` (the parent's external id, or null), `sell_type`,",
  '`prices_writable` (false for child plans), and `occupancies[]` (spec 2.5 entries `{code, kind, persons?,',
  'derived_from?, modifier?, fee?}`) plus `explicit_occupancies`; a child entry has no `occupancies` and shows',
  'its `derivation` `{percent, periods?}` instead. Path segments take the external id or the partner code.',
].join(' ');

export function registerRatePlanReads(app: QcApp, deps: Deps) {
  app.get(
    routes.ratePlansList.path,
    async ({ principal, params, query }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const perPage = query.per_page ?? PER_PAGE;
      const page = query.page ?? 1;
      const [total, rows] = await Promise.all([
        countPairs(deps.db, property.id),
        pairsOfProperty(deps.db, property.id, perPage, (page - 1) * perPage),
      ]);
      return ok({ rate_plans: rows.map(ratePlanEntry), meta: pageMeta(total, page, perPage) });
    },
    {
      qc: routes.ratePlansList,
      params: PropertyParams,
      query: ListQuery,
      detail: {
        summary: routes.ratePlansList.summary,
        tags: ['rate plans'],
        description: `One entry per (rate plan x room type) pair, paged over pairs (per_page up to 200). ${ENTRY_DOC}`,
      },
    },
  );
  app.get(
    routes.ratePlansShow.path,
    async ({ principal, params }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const plan = await resolveRatePlan(deps.db, property.id, params.ratePlan);
      const [row, pairs] = await Promise.all([planRow(deps.db, plan.id), pairsOfPlan(deps.db, property.id, plan.id)]);
      return ok(ratePlanView(row, pairs));
    },
    {
      qc: routes.ratePlansShow,
      params: RatePlanParams,
      detail: {
        summary: routes.ratePlansShow.summary,
        tags: ['rate plans'],
        description: `The plan with \`room_type_ids\`, its policies and \`mappings[]\`: one entry per pair. ${ENTRY_DOC}`,
      },
    },
  );
}
