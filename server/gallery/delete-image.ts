import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { deleteImage } from './delete.ts';
import { DeleteQuery, ImageInUseFields, ImageParams } from './model.ts';
import { pathImage } from './path-image.ts';

export const deleteGalleryImage = defineRoute({
  name: 'qc.gallery.delete',
  method: 'DELETE',
  path: '/gallery/:image',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'gallery_image',
  summary: 'Delete an image (409 with usages[] while used; ?force=1 severs them)',
  tags: ['gallery'],
  description: [
    'An image used by the property, a room type or a content page: 409 `errors.qc.gallery_image_in_use` with',
    '`usages[]` (kind, property_id, room_type_id, content_page_id, position). `?force=1` removes the image from',
    'every usage and deletes it; the answer counts `severed_usages`. Usages on properties outside the token',
    "allow-list cannot be severed by it: force then answers the same 409. The image's public URL stops working.",
  ].join(' '),
  params: ImageParams,
  query: DeleteQuery,
  body: EmptyBody,
  response: okSchema(
    t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true), severed_usages: t.Integer() }),
  ),
  errors: ['errors.qc.gallery_image_in_use'],
  errorFields: ImageInUseFields,
  // Checked before the body; the delete reads it again, locked, in its transaction (a keyed retry of a delete that
  // went through replays its first answer: the pipeline looks at the key before it refuses a record gone since).
  pathRecord: pathImage,
  async handle({ deps, principal, params, query }) {
    const force = query.force === '1' || query.force === 'true';
    return ok(await deleteImage(deps, principal, params.image, force));
  },
});
