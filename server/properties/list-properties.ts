import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertySchema } from './model.ts';
import { propertyView } from './view.ts';

export const listProperties = defineRoute({
  name: 'qc.properties.list',
  method: 'GET',
  path: '/properties',
  scope: null,
  bucket: 'reads',
  resource: 'property',
  summary: 'Properties the token may act on',
  tags: ['properties'],
  query: ListQuery,
  response: okSchema(t.Object({ properties: t.Array(PropertySchema), meta: MetaSchema })),
  async handle({ deps, principal, query }) {
    const ids = [...principal.propertyIds];
    const { page, perPage } = pageOf(query);
    const rows = await deps.db.sql<PropertyRow>`
      select * from properties where id = any(${ids}::bigint[])
      order by created_at, id limit ${perPage} offset ${(page - 1) * perPage}`;
    return ok({ properties: rows.map(propertyView), meta: pageMeta(ids.length, page, perPage) });
  },
});
