import { authenticate } from '../core/auth/authenticate.ts';
import { uploadImages } from '../gallery/upload.ts';
import { setImages } from '../gallery/usages.ts';
import { imageView } from '../gallery/view.ts';
import type { DemoContext } from './demo.ts';

/** A real 48x32 PNG (sky over sand): the demo's one gallery image. */
const SEASIDE_PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAAqElEQVR42s3OeQoBARiH4d9xSJIkkiSJK0lJScYylrFMSkpOM8iSJUvmX+fwHeOt5wCPIrUARdH6DkWxxh5F8eYBRYnWEUXJ9glFKeeMonTvgqKMe0VRdnRDUc67oyg/e6Co4D9RVFy+UFRavVFUXn9QVNl8UVTdhij6BT6KhRYoFpqjWGiKYiEPxUITFAuNUSw0RLGQi2KhAYqF+igW6qJYyEGxUAflD1OxOwbWztxDAAAAAElFTkSuQmCC',
  ),
  (c) => c.charCodeAt(0),
);

/**
 * The gallery part of the demo: one image, shown on the live property (the content page step shows it too).
 * Not on a room type: the legacy room details of the demo stay as the legacy service answered them; attach it
 * with PUT .../room_types/{id}/images to see it there. Output: `demo.gallery = {image_id, url}`.
 */
export async function galleryDemoStep(ctx: DemoContext): Promise<void> {
  const principal = await authenticate(ctx.deps, `Bearer ${ctx.demo.personal_token}`);
  const [image] = await uploadImages(ctx.deps, principal, [
    new File([SEASIDE_PNG], 'seaside.png', { type: 'image/png' }),
  ]);
  if (!image) throw new Error('demo image upload returned nothing');
  await ctx.deps.db.tx((tx) =>
    setImages(tx, principal, { kind: 'property', propertyId: ctx.live.id }, [image.external_id]),
  );
  const view = imageView(ctx.deps.config, principal, image, []);
  ctx.demo.gallery = { image_id: view.id, url: view.url };
}
