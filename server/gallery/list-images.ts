import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery } from '../properties/model.ts';
import { listImages, usagesOf } from './images.ts';
import { ImageSchema } from './model.ts';
import { imageView } from './view.ts';

export const listGalleryImages = defineRoute({
  name: 'qc.gallery.list',
  method: 'GET',
  path: '/gallery',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'gallery_image',
  summary: 'The account gallery, oldest first, with usages',
  tags: ['gallery'],
  description:
    'Owner-scoped: every image of the account. A usage on a property outside the token allow-list shows only its kind (`outside_grant: true`).',
  query: ListQuery,
  response: okSchema(t.Object({ images: t.Array(ImageSchema), meta: MetaSchema })),
  async handle({ deps, principal, query }) {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listImages(deps.db, principal, page, perPage);
    const usages = await usagesOf(
      deps.db,
      rows.map((r) => r.id),
    );
    return ok({
      images: rows.map((row) => imageView(deps.config, principal, row, usages.get(row.id) ?? [])),
      meta: pageMeta(total, page, perPage),
    });
  },
});
