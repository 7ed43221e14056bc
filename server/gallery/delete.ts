import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { errorFields } from '../core/log.ts';
import { recordEvent } from '../core/outbox.ts';
import { findImage, usagesOf } from './images.ts';
import { usageView } from './view.ts';

/**
 * Deletes an image. While something uses it, the answer is 409 errors.qc.gallery_image_in_use with
 * `usages[]`; `force` severs every usage and deletes. A usage on a property the token may not act on
 * cannot be severed by it: force then answers the same 409, and nothing changes.
 * The row goes first (in one transaction with its usages); the stored bytes after the commit, so a failed
 * transaction never leaves a listed image without its file. A registered legacy file stays in storage.
 */
export async function deleteImage(deps: Deps, principal: Principal, externalId: string, force: boolean) {
  const image = await deps.db.tx(async (tx) => {
    const row = await findImage(tx, principal, externalId, true);
    const usages = (await usagesOf(tx, [row.id])).get(row.id) ?? [];
    const outside = usages.some((u) => !principal.propertyIds.has(u.property_id));
    if (usages.length > 0 && (!force || outside)) {
      throw new ApiError('errors.qc.gallery_image_in_use', { usages: usages.map((u) => usageView(u, principal)) });
    }
    await tx.sql`delete from gallery_image_usages where image_id = ${row.id}`;
    await tx.sql`delete from gallery_images where id = ${row.id}`;
    await recordEvent(tx, {
      type: 'gallery_image.deleted',
      customerId: row.customer_id,
      propertyId: null,
      data: { image_id: row.external_id, severed_usages: usages.length },
    });
    return { row, severed: usages.length };
  });
  if (image.row.legacy_file_id === null) {
    try {
      await deps.storage.delete(image.row.storage_key);
    } catch (err) {
      deps.log.warn('gallery could not remove a deleted image file', {
        ...errorFields(err),
        key: image.row.storage_key,
      });
    }
  }
  return { id: image.row.external_id, deleted: true, severed_usages: image.severed };
}
