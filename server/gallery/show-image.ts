import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { usagesOf } from './images.ts';
import { ImageParams, ImageSchema } from './model.ts';
import { pathImage } from './path-image.ts';
import { imageView } from './view.ts';

export const showGalleryImage = defineRoute({
  name: 'qc.gallery.show',
  method: 'GET',
  path: '/gallery/:image',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'gallery_image',
  summary: 'One gallery image with its usages',
  tags: ['gallery'],
  params: ImageParams,
  response: okSchema(ImageSchema),
  pathRecord: pathImage,
  async handle({ deps, principal }, row) {
    const usages = (await usagesOf(deps.db, [row.id])).get(row.id) ?? [];
    return ok(imageView(deps.config, principal, row, usages));
  },
});
