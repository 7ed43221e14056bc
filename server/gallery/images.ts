import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { isUuid } from '../core/resolve.ts';

export interface ImageRow {
  id: number;
  external_id: string;
  customer_id: number;
  storage_key: string;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  sha256: string;
  file_name: string;
  legacy_file_id: string | null;
  created_at: Date;
}

export interface UsageRow {
  image_id: number;
  kind: 'property' | 'room_type' | 'content_page';
  property_id: number;
  property_external_id: string;
  room_type_external_id: string | null;
  content_page_external_id: string | null;
  position: number;
}

/**
 * The gallery is the customer's: any credential of the customer sees its images (owner-scoped, spec 2.9). An id
 * that is no UUID names no image: 404 like an unknown one.
 */
export async function findImage(db: Db, principal: Principal, externalId: string, lock = false): Promise<ImageRow> {
  if (!isUuid(externalId)) throw notFound();
  const [row] = lock
    ? await db.sql<ImageRow>`select * from gallery_images
        where external_id = ${externalId} and customer_id = ${principal.customerId} for update`
    : await db.sql<ImageRow>`select * from gallery_images
        where external_id = ${externalId} and customer_id = ${principal.customerId}`;
  if (!row) throw notFound();
  return row;
}

export async function listImages(db: Db, principal: Principal, page: number, perPage: number) {
  const [count] = await db.sql<{ n: number }>`
    select count(*)::int as n from gallery_images where customer_id = ${principal.customerId}`;
  const rows = await db.sql<ImageRow>`
    select * from gallery_images where customer_id = ${principal.customerId}
    order by id limit ${perPage} offset ${(page - 1) * perPage}`;
  return { rows, total: count?.n ?? 0 };
}

/** Every usage of the given images, in a stable order (kind, property, target, position). */
export async function usagesOf(db: Db, imageIds: readonly number[]): Promise<Map<number, UsageRow[]>> {
  const rows = await db.sql<UsageRow>`
    select u.image_id, u.kind, u.property_id, p.external_id as property_external_id,
      r.external_id as room_type_external_id, c.external_id as content_page_external_id, u.position
    from gallery_image_usages u
    join properties p on p.id = u.property_id
    left join room_types r on r.id = u.room_type_id
    left join content_pages c on c.id = u.content_page_id
    where u.image_id = any(${[...imageIds]}::bigint[])
    order by u.image_id, u.kind, u.property_id, u.room_type_id nulls first, u.content_page_id nulls first, u.position`;
  const out = new Map<number, UsageRow[]>();
  for (const row of rows) out.set(row.image_id, [...(out.get(row.image_id) ?? []), row]);
  return out;
}
