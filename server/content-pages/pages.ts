import { updateOwned } from '../config-surfaces/owned-records.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { SqlState, sqlState } from '../core/db/db.ts';
import { ApiError, notFound } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isUuid } from '../core/resolve.ts';
import { imagesOf, setImages } from '../gallery/usages.ts';

export interface PageRow {
  id: number;
  external_id: string;
  property_id: number;
  slug: string;
  title: string;
  title_tr: Record<string, string>;
  body_html: Record<string, string>;
  is_published: boolean;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export interface PageInput {
  slug?: string;
  title?: string;
  title_tr?: Record<string, string>;
  body_html?: Record<string, string>;
  is_published?: boolean;
  position?: number;
  image_ids?: string[];
}

/** A page of the property by id, else by slug; 404 otherwise (a page of another property too). */
export async function findPage(db: Db, propertyId: number, segment: string, lock = false): Promise<PageRow> {
  const lockClause = lock ? 'for update' : '';
  const [row] = await db.query<PageRow>(
    `select * from content_pages where property_id = $1 and ${isUuid(segment) ? 'external_id = $2::uuid' : 'slug = $2'} ${lockClause}`,
    [propertyId, segment],
  );
  if (!row) throw notFound();
  return row;
}

export async function listPages(db: Db, propertyId: number, page: number, perPage: number) {
  const [count] = await db.sql<{ n: number }>`
    select count(*)::int as n from content_pages where property_id = ${propertyId}`;
  const rows = await db.sql<PageRow>`
    select * from content_pages where property_id = ${propertyId}
    order by position, id limit ${perPage} offset ${(page - 1) * perPage}`;
  return { rows, total: count?.n ?? 0 };
}

/** A slug used by another page of the property: 409 errors.qc.content_page_slug_taken. */
async function uniqueSlug<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlState(err) === SqlState.uniqueViolation) throw new ApiError('errors.qc.content_page_slug_taken');
    throw err;
  }
}

export async function createPage(tx: Db, principal: Principal, property: PropertyRow, input: PageInput) {
  const row = await uniqueSlug(async () => {
    const [created] = await tx.sql<PageRow>`
      insert into content_pages (property_id, slug, title, title_tr, body_html, is_published, position)
      values (${property.id}, ${input.slug}, ${input.title ?? ''}, ${input.title_tr ?? {}}, ${input.body_html ?? {}},
        ${input.is_published ?? true}, ${input.position ?? 0})
      returning *`;
    return created as PageRow;
  });
  if (input.image_ids) await setImages(tx, principal, pageTarget(row), input.image_ids);
  await recordEvent(tx, { type: 'content_page.created', ...pageEvent(property, row) });
  return row;
}

/** Only the fields present change; a PATCH that changes nothing writes nothing and records no event. */
export async function updatePage(
  tx: Db,
  principal: Principal,
  property: PropertyRow,
  segment: string,
  input: PageInput,
) {
  const current = await findPage(tx, property.id, segment, true);
  const updated = await uniqueSlug(() =>
    updateOwned<PageRow>(
      tx,
      'content_pages',
      current.id,
      {
        slug: input.slug ?? current.slug,
        title: input.title ?? current.title,
        title_tr: input.title_tr ?? current.title_tr,
        body_html: input.body_html ?? current.body_html,
        is_published: input.is_published ?? current.is_published,
        position: input.position ?? current.position,
      },
      undefined,
    ),
  );
  const imagesChanged = input.image_ids !== undefined && !(await sameImages(tx, current, input.image_ids));
  if (input.image_ids && imagesChanged) await setImages(tx, principal, pageTarget(current), input.image_ids);
  if (!updated && !imagesChanged) return current;
  // Images alone changed: the page changed all the same (its answer lists them), so it is stamped.
  const row = updated ?? (await stampPage(tx, current.id));
  await recordEvent(tx, { type: 'content_page.updated', ...pageEvent(property, row) });
  return row;
}

async function stampPage(tx: Db, id: number): Promise<PageRow> {
  const [row] = await tx.sql<PageRow>`update content_pages set updated_at = now() where id = ${id} returning *`;
  return row as PageRow;
}

/** Whether `imageIds` names the page's images as attached now, in the same order. */
async function sameImages(db: Db, page: PageRow, imageIds: readonly string[]): Promise<boolean> {
  const attached = (await imagesOf(db, pageTarget(page))).map((i) => i.external_id);
  return attached.length === imageIds.length && attached.every((id, i) => id === imageIds[i]?.toLowerCase());
}

/**
 * Deletes a page. Guest-guide items that referenced it keep their words and lose the reference
 * (content_page_id becomes null), and its gallery usages go with it (the images stay in the gallery).
 */
export async function deletePage(tx: Db, property: PropertyRow, segment: string) {
  const page = await findPage(tx, property.id, segment, true);
  const stripped = await tx.sql<{ id: number }>`
    update guest_guide_items set content_page_id = null where content_page_id = ${page.id} returning id`;
  await tx.sql`delete from gallery_image_usages where content_page_id = ${page.id}`;
  await tx.sql`delete from content_pages where id = ${page.id}`;
  await recordEvent(tx, {
    type: 'content_page.deleted',
    customerId: property.customer_id,
    propertyId: property.id,
    data: {
      property_id: property.external_id,
      content_page_id: page.external_id,
      slug: page.slug,
      stripped_guide_items: stripped.length,
    },
  });
  return { id: page.external_id, deleted: true as const, stripped_guide_items: stripped.length };
}

export function pageTarget(row: PageRow) {
  return { kind: 'content_page', propertyId: row.property_id, contentPageId: row.id } as const;
}

function pageEvent(property: PropertyRow, row: PageRow) {
  return {
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, content_page_id: row.external_id, slug: row.slug },
  };
}
