import { Elysia, t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { MEDIA_PATH } from '../core/media-url.ts';

const FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z]+$/i;

/**
 * Serves gallery images at their public URLs, without authentication: OTAs and legacy PMSs fetch them from
 * room details. The id is random (unguessable) and an image's bytes never change, so answers may be cached
 * for a year. Only recorded images are served: a deleted image is 404 at once.
 */
export function galleryMedia(deps: Deps) {
  return new Elysia({ name: 'qc-gallery-media' }).get(
    `${MEDIA_PATH}/:file`,
    async ({ params }) => {
      const id = FILE.exec(params.file)?.[1];
      if (!id) return notFound();
      const [row] = await deps.db.sql<{ storage_key: string; content_type: string }>`
        select storage_key, content_type from gallery_images where external_id = ${id}`;
      const bytes = row ? await deps.storage.get(row.storage_key) : undefined;
      if (!row || !bytes) return notFound();
      return new Response(bytes, {
        headers: {
          'content-type': row.content_type,
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          // An image, shown inline under our own name, never the uploader's; opened directly it runs nothing and
          // loads nothing, whatever its bytes hold.
          'content-disposition': `inline; filename="${params.file}"`,
          'content-security-policy': "default-src 'none'; sandbox",
        },
      });
    },
    { params: t.Object({ file: t.String() }), detail: { hide: true } },
  );
}

function notFound(): Response {
  return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
