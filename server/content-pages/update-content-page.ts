import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ImageNotFoundFields } from '../gallery/model.ts';
import { PageParams, PageSchema, UpdatePageBody } from './model.ts';
import { updatePage } from './pages.ts';
import { pathPage } from './path-page.ts';
import { pageView } from './view.ts';

export const updateContentPage = defineRoute({
  name: 'qc.content_pages.update',
  method: 'PATCH',
  path: '/properties/:property/content_pages/:page',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'content_page',
  summary: 'Change a content page (partial)',
  tags: ['content pages'],
  description:
    'Only the fields present change; `title_tr` and `body_html` replace their whole map; `image_ids` replaces the list.',
  params: PageParams,
  body: UpdatePageBody,
  response: okSchema(PageSchema),
  errors: ['errors.qc.content_page_slug_taken', 'errors.qc.gallery_image_not_found'],
  errorFields: ImageNotFoundFields,
  pathRecord: pathPage,
  handle: inProperty(async ({ deps, principal, params, body }, property) => {
    const row = await deps.db.tx((tx) => updatePage(tx, principal, property, params.page, body));
    return ok(await pageView(deps.db, row));
  }),
});
