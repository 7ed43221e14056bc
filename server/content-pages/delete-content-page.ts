import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PageParams } from './model.ts';
import { deletePage } from './pages.ts';
import { pathPage } from './path-page.ts';

export const deleteContentPage = defineRoute({
  name: 'qc.content_pages.delete',
  method: 'DELETE',
  path: '/properties/:property/content_pages/:page',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'content_page',
  summary: 'Delete a content page (strips its guest-guide references)',
  tags: ['content pages'],
  description:
    'Guest-guide items that referenced the page stay with `content_page_id: null` (their title and text are kept); `stripped_guide_items` counts them. The page’s gallery usages go; the images stay in the gallery.',
  params: PageParams,
  body: EmptyBody,
  response: okSchema(
    t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true), stripped_guide_items: t.Integer() }),
  ),
  pathRecord: pathPage,
  handle: inProperty(async ({ deps, params }, property) => {
    return ok(await deps.db.tx((tx) => deletePage(tx, property, params.page)));
  }),
});
