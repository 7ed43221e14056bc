import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { type PropertyRow, resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { ListQuery, MetaSchema, PropertyParams, PropertySchema } from './model.ts';
import { propertyView } from './view.ts';

const PER_PAGE = 200;

export function registerPropertyReads(app: QcApp, deps: Deps) {
  app.get(
    routes.propertiesList.path,
    async ({ principal, query }) => {
      const ids = [...principal.propertyIds];
      const perPage = query.per_page ?? PER_PAGE;
      const page = query.page ?? 1;
      const rows = await deps.db.sql<PropertyRow>`
        select * from properties where id = any(${ids}::bigint[])
        order by created_at, id limit ${perPage} offset ${(page - 1) * perPage}`;
      return ok({ properties: rows.map(propertyView), meta: pageMeta(ids.length, page, perPage) });
    },
    {
      qc: routes.propertiesList,
      query: ListQuery,
      detail: { summary: routes.propertiesList.summary, tags: ['properties'] },
      response: t.Object({
        status: t.Literal('ok'),
        message: t.String(),
        data: t.Object({ properties: t.Array(PropertySchema), meta: MetaSchema }),
      }),
    },
  );
  app.get(
    routes.propertiesShow.path,
    async ({ principal, params }) => ok(propertyView(await resolveProperty(deps.db, principal, params.property))),
    {
      qc: routes.propertiesShow,
      params: PropertyParams,
      detail: { summary: routes.propertiesShow.summary, tags: ['properties'] },
    },
  );
}
