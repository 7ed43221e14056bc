import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { AttachedImagesSchema, attachedImagesView } from './attached.ts';
import { ImageIdsBody, ImageNotFoundFields } from './model.ts';
import { setImages } from './usages.ts';

export const setPropertyImages = defineRoute({
  name: 'qc.gallery.property_images',
  method: 'PUT',
  path: '/properties/:property/images',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'gallery_image',
  summary: "Set the property's own images (gallery ids, in order)",
  tags: ['gallery'],
  description:
    'Replaces the list; an empty list detaches all. Each id must be an image of the account gallery (422 `errors.qc.gallery_image_not_found`). These are usages: deleting such an image needs `?force=1`.',
  params: PropertyParams,
  body: ImageIdsBody,
  response: okSchema(AttachedImagesSchema),
  errors: ['errors.qc.gallery_image_not_found'],
  errorFields: ImageNotFoundFields,
  handle: inProperty(async ({ deps, principal, body }, property) => {
    const target = { kind: 'property', propertyId: property.id } as const;
    await deps.db.tx((tx) => setImages(tx, principal, target, body.image_ids));
    return ok(await attachedImagesView(deps.db, deps.config, target));
  }),
});
