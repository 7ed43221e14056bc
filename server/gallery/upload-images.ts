import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import type { ImageRow } from './images.ts';
import { ImageSchema, UploadBody, UploadRefusalFields } from './model.ts';
import { uploadImages } from './upload.ts';
import { imageView } from './view.ts';

export const uploadGalleryImages = defineRoute({
  name: 'qc.gallery.upload',
  method: 'POST',
  path: '/gallery',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'gallery_image',
  // Up to 20 images of 10 MiB are refused one by one (422 per file); beyond 32 MiB the request is 413.
  maxBodyBytes: 32 * 1024 * 1024,
  summary: 'Upload images to the account gallery (multipart)',
  tags: ['gallery'],
  description: [
    '`multipart/form-data` with one or more `images` parts (at most 20). Each file is checked by its content,',
    'not its name or declared type: JPEG, PNG, GIF or WebP, up to 10 MiB, 12000 pixels a side and 50 megapixels;',
    'bytes after the image itself (an appended HTML page) are dropped, and `file_name` is the name made safe. A file that',
    'is not such an image: 422 `errors.qc.gallery_not_an_image`; too big: 422 `errors.qc.gallery_image_too_large`;',
    'both name the `file` and its `index`, and nothing of the request is stored. When storage refuses: 500',
    '`errors.qc.gallery_upload_failed` and nothing is recorded (retry). Answers 201 with the new images, each',
    'with its stable public `url` (no authentication needed to fetch it).',
  ].join(' '),
  body: UploadBody,
  contentTypes: ['multipart/form-data'],
  status: 201,
  response: okSchema(t.Object({ images: t.Array(ImageSchema) })),
  errors: [
    'errors.qc.gallery_not_an_image',
    'errors.qc.gallery_image_too_large',
    'errors.qc.gallery_too_many_files',
    'errors.qc.gallery_upload_failed',
  ],
  errorFields: UploadRefusalFields,
  async handle({ deps, principal, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    const answer = (rows: ImageRow[]) => ok({ images: rows.map((row) => imageView(deps.config, principal, row, [])) });
    return answer(await uploadImages(deps, principal, body.images, (tx, rows) => kept.keep(tx, 201, answer(rows))));
  },
});
