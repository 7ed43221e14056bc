import { t } from 'elysia';
import type { Config } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import { extensionOf, publicImageUrl } from '../core/media-url.ts';
import { imagesOf, type UsageTarget } from './usages.ts';

export const AttachedImagesSchema = t.Object({
  image_ids: t.Array(t.String({ format: 'uuid' })),
  urls: t.Array(t.String(), { description: 'the public URLs, same order' }),
});

/** The images attached to a target as ids and public URLs (the answer of the PUT .../images routes). */
export async function attachedImagesView(db: Db, config: Config, target: UsageTarget) {
  const images = await imagesOf(db, target);
  return {
    image_ids: images.map((i) => i.external_id),
    urls: images.map((i) => publicImageUrl(config, i.external_id, extensionOf(i.content_type))),
  };
}
