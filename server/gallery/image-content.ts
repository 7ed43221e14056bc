import { imageSize } from 'image-size';
import { imageEnd } from './image-end.ts';

/** What the gallery accepts: raster formats every browser and OTA shows. SVG is refused (it carries script). */
const ACCEPTED = {
  jpg: { contentType: 'image/jpeg', extension: 'jpg' },
  png: { contentType: 'image/png', extension: 'png' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
} as const;

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * A small file can still decode to billions of pixels, and whoever shows it (an OTA, a browser, a thumbnailer)
 * decodes all of them: bounded per side and in all. 50 megapixels is past any camera's hotel photo (a 45 MP
 * frame is 8192 x 5464); OTAs take nothing near it.
 */
export const MAX_IMAGE_SIDE = 12_000;
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_FILES_PER_UPLOAD = 20;

export interface ImageContent {
  contentType: string;
  extension: string;
  width: number;
  height: number;
  /** Where the image's own bytes end (./image-end.ts); anything after it is not part of the image. */
  end: number;
}

export type ImageRefusal = 'not_an_image' | 'too_large';

/**
 * The type of an upload read from its bytes (magic numbers and headers), never from its name or the
 * declared content type, with its dimensions and where it ends; or why it is refused (a structure broken
 * before its end is not an image).
 */
export function inspectImage(bytes: Uint8Array): ImageContent | ImageRefusal {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return 'too_large';
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return 'not_an_image';
  }
  const accepted = ACCEPTED[size.type as keyof typeof ACCEPTED];
  if (!accepted || !size.width || !size.height) return 'not_an_image';
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE) return 'too_large';
  if (size.width * size.height > MAX_IMAGE_PIXELS) return 'too_large';
  const end = imageEnd(bytes, accepted.extension);
  if (end === undefined) return 'not_an_image';
  return { ...accepted, width: size.width, height: size.height, end };
}
