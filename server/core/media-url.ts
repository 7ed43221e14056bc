import type { Config } from './config.ts';

/**
 * Public URLs of gallery images (server/gallery/serve-image.ts serves them without authentication). In core
 * because the legacy room details (legacy/, which imports only core) list the same URLs.
 */
export const MEDIA_PATH = '/media/gallery';

/**
 * An image's stable public URL: QC_PUBLIC_URL (HTTPS in production) plus the image id, which never changes
 * and is unguessable. The file extension is cosmetic: OTAs and legacy PMSs like URLs that end in one.
 */
export function publicImageUrl(config: Config, externalId: string, extension: string): string {
  const base = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  return `${base}${MEDIA_PATH}/${externalId}.${extension}`;
}

export function extensionOf(contentType: string): string {
  return contentType === 'image/jpeg' ? 'jpg' : contentType.replace('image/', '');
}
