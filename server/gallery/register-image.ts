import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import type { ImageRow } from './images.ts';
import { ImageSchema, RegisterBody, RegisterRefusalFields } from './model.ts';
import { registerLegacyImage } from './upload.ts';
import { imageView } from './view.ts';

export const registerGalleryImage = defineRoute({
  name: 'qc.gallery.register',
  method: 'POST',
  path: '/gallery/register',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'gallery_image',
  summary: 'Add a file the legacy platform already stores to the gallery',
  tags: ['gallery'],
  description: [
    '`legacy_file_id` names a file of this account in the legacy platform storage; it joins the gallery without',
    'being copied, checked by content like an upload. Unknown id: 422 `errors.qc.gallery_legacy_file_not_found`;',
    'already registered: 409 `errors.qc.gallery_legacy_file_registered` with `image_id`. Deleting the gallery',
    'image later leaves the legacy file in place.',
  ].join(' '),
  body: RegisterBody,
  status: 201,
  response: okSchema(ImageSchema),
  errors: [
    'errors.qc.gallery_legacy_file_not_found',
    'errors.qc.gallery_legacy_file_registered',
    'errors.qc.gallery_not_an_image',
    'errors.qc.gallery_image_too_large',
    'errors.qc.gallery_upload_failed',
  ],
  errorFields: RegisterRefusalFields,
  async handle({ deps, principal, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    const answer = (row: ImageRow) => ok(imageView(deps.config, principal, row, []));
    return answer(
      await registerLegacyImage(deps, principal, body.legacy_file_id, (tx, row) => kept.keep(tx, 201, answer(row))),
    );
  },
});
