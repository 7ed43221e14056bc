import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { ENTRY_DOC, RatePlanEntrySchema } from './model.ts';
import { listRatePlanEntries } from './plan-reads.ts';

export const listRatePlans = defineRoute({
  name: 'qc.rate_plans.list',
  method: 'GET',
  path: '/properties/:property/rate_plans',
  scope: 'inventory.read',
  bucket: 'reads',
  resource: 'rate_plan',
  summary: 'Rate plans, one entry per rate plan x room type pair',
  tags: ['rate plans'],
  description: `One entry per (rate plan x room type) pair, paged over pairs. ${ENTRY_DOC}`,
  params: PropertyParams,
  query: ListQuery,
  response: okSchema(t.Object({ rate_plans: t.Array(RatePlanEntrySchema), meta: MetaSchema })),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, query }, property) => {
    const { page, perPage } = pageOf(query);
    const { entries, total } = await listRatePlanEntries(deps.db, property.id, page, perPage);
    return ok({ rate_plans: entries, meta: pageMeta(total, page, perPage) });
  }),
});
