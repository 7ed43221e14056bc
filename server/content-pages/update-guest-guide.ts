import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { replaceGuide } from './guest-guide.ts';
import { GuideBody, GuideSchema } from './model.ts';

export const updateGuestGuide = defineRoute({
  name: 'qc.guest_guide.update',
  method: 'PUT',
  path: '/properties/:property/guest_guide',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'guest_guide',
  summary: 'Replace the guest guide',
  tags: ['content pages'],
  description: [
    '`items[]` in display order, each `{kind, title?, title_tr?, text?, url?, content_page_id?}`: kind `text`',
    '(title and localized text), `link` (an HTTPS `url`) or `page` (`content_page_id`: a page of this property by',
    'id or slug; another: 422 `errors.qc.content_page_not_found` naming the `item` index).',
  ].join(' '),
  params: PropertyParams,
  body: GuideBody,
  response: okSchema(GuideSchema),
  errors: ['errors.qc.content_page_not_found'],
  errorFields: {
    422: {
      item: t.Integer({ description: 'with errors.qc.content_page_not_found: the position of the item in `items`' }),
    },
  },
  handle: inProperty(async ({ deps, body }, property) => {
    return ok(await deps.db.tx((tx) => replaceGuide(tx, property, body.items)));
  }),
});
