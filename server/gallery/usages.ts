import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { ApiError, fieldError } from '../core/http/api-error.ts';

/** The one target a list of images is attached to: the property itself, one room type or one content page. */
export type UsageTarget =
  | { kind: 'property'; propertyId: number }
  | { kind: 'room_type'; propertyId: number; roomTypeId: number }
  | { kind: 'content_page'; propertyId: number; contentPageId: number };

/**
 * Replaces the images attached to a target with `imageIds` (gallery external ids, in display order). Every
 * id must be an image of the caller's gallery (422 errors.qc.gallery_image_not_found naming the first
 * that is not). Run inside the caller's transaction.
 */
export async function setImages(tx: Db, principal: Principal, target: UsageTarget, imageIds: readonly string[]) {
  // The body schema refuses a repeated id (uniqueItems) as written; the same id in another letter case names the
  // same image, and would attach it twice. Same answer, under the resource of the route that sets the list.
  const lower = imageIds.map((id) => id.toLowerCase());
  if (lower.some((id, i) => lower.indexOf(id) !== i))
    throw fieldError(target.kind === 'content_page' ? 'content_page' : 'gallery_image', 'image_ids', 'unique');
  const found = await tx.sql<{ id: number; external_id: string }>`
    select id, external_id from gallery_images
    where customer_id = ${principal.customerId} and external_id = any(${[...imageIds]}::uuid[])`;
  const byExternal = new Map(found.map((r) => [r.external_id, r.id]));
  const missing = imageIds.find((id) => !byExternal.has(id.toLowerCase()));
  if (missing !== undefined) throw new ApiError('errors.qc.gallery_image_not_found', { image_id: missing });
  const roomTypeId = target.kind === 'room_type' ? target.roomTypeId : null;
  const contentPageId = target.kind === 'content_page' ? target.contentPageId : null;
  await tx.sql`
    delete from gallery_image_usages
    where kind = ${target.kind} and property_id = ${target.propertyId}
      and room_type_id is not distinct from ${roomTypeId}::bigint
      and content_page_id is not distinct from ${contentPageId}::bigint`;
  const ids = imageIds.map((id) => byExternal.get(id.toLowerCase()) as number);
  await tx.sql`
    insert into gallery_image_usages (image_id, kind, property_id, room_type_id, content_page_id, position)
    select image_id, ${target.kind}, ${target.propertyId}, ${roomTypeId}::bigint, ${contentPageId}::bigint, position::int - 1
    from unnest(${ids}::bigint[]) with ordinality as u(image_id, position)`;
}

/** The images attached to a target, in display order. */
export async function imagesOf(db: Db, target: UsageTarget): Promise<{ external_id: string; content_type: string }[]> {
  const roomTypeId = target.kind === 'room_type' ? target.roomTypeId : null;
  const contentPageId = target.kind === 'content_page' ? target.contentPageId : null;
  return db.sql<{ external_id: string; content_type: string }>`
    select g.external_id, g.content_type from gallery_image_usages u join gallery_images g on g.id = u.image_id
    where u.kind = ${target.kind} and u.property_id = ${target.propertyId}
      and u.room_type_id is not distinct from ${roomTypeId}::bigint
      and u.content_page_id is not distinct from ${contentPageId}::bigint
    order by u.position`;
}
