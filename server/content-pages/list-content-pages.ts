import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { PageSchema } from './model.ts';
import { listPages } from './pages.ts';
import { pageView } from './view.ts';

export const listContentPages = defineRoute({
  name: 'qc.content_pages.list',
  method: 'GET',
  path: '/properties/:property/content_pages',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'content_page',
  summary: "The property's content pages, by position",
  tags: ['content pages'],
  params: PropertyParams,
  query: ListQuery,
  response: okSchema(t.Object({ content_pages: t.Array(PageSchema), meta: MetaSchema })),
  handle: inProperty(async ({ deps, query }, property) => {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listPages(deps.db, property.id, page, perPage);
    const views = [];
    for (const row of rows) views.push(await pageView(deps.db, row));
    return ok({ content_pages: views, meta: pageMeta(total, page, perPage) });
  }),
});
