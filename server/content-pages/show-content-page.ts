import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PageParams, PageSchema } from './model.ts';
import { pathPage } from './path-page.ts';
import { pageView } from './view.ts';

export const showContentPage = defineRoute({
  name: 'qc.content_pages.show',
  method: 'GET',
  path: '/properties/:property/content_pages/:page',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'content_page',
  summary: 'One content page (by id or slug)',
  tags: ['content pages'],
  params: PageParams,
  response: okSchema(PageSchema),
  pathRecord: pathPage,
  async handle({ deps }, page) {
    return ok(await pageView(deps.db, page));
  },
});
