import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertySchema } from './model.ts';
import { propertiesPage } from './service.ts';
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
    const { page, perPage } = pageOf(query);
    const { rows, total } = await propertiesPage(deps.db, principal, page, perPage);
    return ok({ properties: rows.map(propertyView), meta: pageMeta(total, page, perPage) });
  },
});
