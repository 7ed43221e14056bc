import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ImageNotFoundFields } from '../gallery/model.ts';
import { PropertyParams } from '../properties/model.ts';
import { CreatePageBody, PageSchema } from './model.ts';
import { createPage } from './pages.ts';
import { pageView } from './view.ts';

export const createContentPage = defineRoute({
  name: 'qc.content_pages.create',
  method: 'POST',
  path: '/properties/:property/content_pages',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'content_page',
  summary: 'Create a content page',
  tags: ['content pages'],
  description: [
    'A page of hotel information (house rules, directions, spa menu): `slug` (lowercase words joined by hyphens,',
    'unique on the property: 409 `errors.qc.content_page_slug_taken`), `title`, `title_tr`, `body_html` (locale to',
    'HTML), `is_published` (default true), `position`, and `image_ids` (gallery images, in order; they become',
    'usages of those images). Guest-guide items reference pages (PUT .../guest_guide).',
  ].join(' '),
  params: PropertyParams,
  body: CreatePageBody,
  status: 201,
  response: okSchema(PageSchema),
  errors: ['errors.qc.content_page_slug_taken', 'errors.qc.gallery_image_not_found'],
  errorFields: ImageNotFoundFields,
  handle: inProperty(async ({ deps, principal, body, request }, property) => {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const answer = ok(await pageView(tx, await createPage(tx, principal, property, body)));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  }),
});
