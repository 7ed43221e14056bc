import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { pathRoomType } from '../room-types/path-room-type.ts';
import { AttachedImagesSchema, attachedImagesView } from './attached.ts';
import { ImageIdsBody, ImageNotFoundFields } from './model.ts';
import { setImages } from './usages.ts';

export const setRoomTypeImages = defineRoute({
  name: 'qc.gallery.room_type_images',
  method: 'PUT',
  path: '/properties/:property/room_types/:roomType/images',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'gallery_image',
  summary: "Set a room type's gallery images (ids, in order)",
  tags: ['gallery'],
  description:
    "Replaces the list; an empty list detaches all. The legacy getRoomsDetails lists these images' public URLs in `images` (after the room's own image URLs). Unknown image id: 422 `errors.qc.gallery_image_not_found`.",
  params: t.Object({ property: t.String(), roomType: t.String() }),
  body: ImageIdsBody,
  response: okSchema(AttachedImagesSchema),
  errors: ['errors.qc.gallery_image_not_found'],
  errorFields: ImageNotFoundFields,
  pathRecord: pathRoomType,
  handle: inProperty(async ({ deps, principal, body }, property, room) => {
    const target = { kind: 'room_type', propertyId: property.id, roomTypeId: room.id } as const;
    await deps.db.tx((tx) => setImages(tx, principal, target, body.image_ids));
    return ok(await attachedImagesView(deps.db, deps.config, target));
  }),
});
