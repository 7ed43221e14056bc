import { authenticate } from '../core/auth/authenticate.ts';
import type { DemoContext } from '../ops/demo.ts';
import { uploadImages } from './upload.ts';
import { setImages } from './usages.ts';
import { imageView } from './view.ts';

/** A real 48x32 PNG (sky over sand): the demo's one gallery image. */
const SEASIDE_PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAAqElEQVR42s3OeQoBARiH4d9xSJIkkiSJK0lJScYylrFMSkpOM8iSJUvmX+fwHeOt5wCPIrUARdH6DkWxxh5F8eYBRYnWEUXJ9glFKeeMonTvgqKMe0VRdnRDUc67oyg/e6Co4D9RVFy+UFRavVFUXn9QVNl8UVTdhij6BT6KhRYoFpqjWGiKYiEPxUITFAuNUSw0RLGQi2KhAYqF+igW6qJYyEGxUAflD1OxOwbWztxDAAAAAElFTkSuQmCC',
  ),
  (c) => c.charCodeAt(0),
);

/**
 * The gallery part of the demo: one image, shown on the live property and on its first room type (so the
 * legacy room details list its public URL). Output: `demo.gallery = {image_id, url}`.
 */
export async function galleryDemoStep(ctx: DemoContext): Promise<void> {
  const principal = await authenticate(ctx.deps, `Bearer ${ctx.demo.personal_token}`);
  const [image] = await uploadImages(ctx.deps, principal, [
    new File([SEASIDE_PNG], 'seaside.png', { type: 'image/png' }),
  ]);
  if (!image) throw new Error('demo image upload returned nothing');
  const [room] = await ctx.deps.db.sql<{ id: number }>`
    select id from room_types where property_id = ${ctx.live.id} and deleted_at is null order by id limit 1`;
  await ctx.deps.db.tx(async (tx) => {
    await setImages(tx, principal, { kind: 'property', propertyId: ctx.live.id }, [image.external_id]);
    if (room) {
      await setImages(tx, principal, { kind: 'room_type', propertyId: ctx.live.id, roomTypeId: room.id }, [
        image.external_id,
      ]);
    }
  });
  const view = imageView(ctx.deps.config, principal, image, []);
  ctx.demo.gallery = { image_id: view.id, url: view.url };
}
