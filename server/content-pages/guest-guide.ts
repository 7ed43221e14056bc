import type { Db } from '../core/db/db.ts';
import { ApiError, fieldError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isUuid } from '../core/resolve.ts';

/**
 * The guest guide: the property's ordered list of content items. An item is a text, a link, or a reference
 * to one content page (kind `page`). Deleting a page strips the reference from its items (see pages.ts):
 * the item stays, with `content_page_id` null, so the hotelier sees what lost its page.
 */
export interface GuideItemInput {
  kind: 'page' | 'text' | 'link';
  title?: string;
  title_tr?: Record<string, string>;
  text?: Record<string, string>;
  url?: string;
  content_page_id?: string;
}

interface GuideRow {
  external_id: string;
  position: number;
  kind: 'page' | 'text' | 'link';
  title: string;
  title_tr: Record<string, string>;
  text: Record<string, string>;
  url: string | null;
  content_page_external_id: string | null;
}

export async function readGuide(db: Db, propertyId: number) {
  const rows = await db.sql<GuideRow>`
    select i.external_id, i.position, i.kind, i.title, i.title_tr, i.text, i.url, p.external_id as content_page_external_id
    from guest_guide_items i left join content_pages p on p.id = i.content_page_id
    where i.property_id = ${propertyId} order by i.position`;
  return {
    items: rows.map((r) => ({
      id: r.external_id,
      position: r.position,
      kind: r.kind,
      title: r.title,
      title_tr: r.title_tr,
      text: r.text,
      url: r.url,
      content_page_id: r.content_page_external_id,
    })),
  };
}

/** Whether the stored guide is these items as replaceGuide would write them, in this order. */
async function sameGuide(
  tx: Db,
  propertyId: number,
  items: readonly GuideItemInput[],
  pageIds: readonly (number | null)[],
): Promise<boolean> {
  const stored = await tx.sql<{ row: string }>`
    select json_build_array(kind, title, title_tr, text, url, content_page_id)::jsonb::text as row
    from guest_guide_items where property_id = ${propertyId} order by position for update`;
  if (stored.length !== items.length) return false;
  const written = await tx.query<{ row: string }>(
    `select json_build_array(u.kind, u.title, u.title_tr::jsonb, u.text::jsonb, u.url, u.page_id)::jsonb::text as row
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) with ordinality
       as u(kind, title, title_tr, text, url, page_id, n)
     order by u.n`,
    [
      items.map((i) => i.kind),
      items.map((i) => i.title ?? ''),
      items.map((i) => JSON.stringify(i.title_tr ?? {})),
      items.map((i) => JSON.stringify(i.text ?? {})),
      items.map((i) => (i.kind === 'link' ? (i.url ?? null) : null)),
      pageIds.map((id) => id ?? null),
    ],
  );
  return stored.every((r, index) => r.row === written[index]?.row);
}

/** Replaces the whole guide (items in the order given). A page item names a page of this property by id or slug. */
export async function replaceGuide(tx: Db, property: PropertyRow, items: readonly GuideItemInput[]) {
  const pageIds: (number | null)[] = [];
  for (const [index, item] of items.entries()) {
    if (item.kind === 'link' && !item.url) throw fieldError('guest_guide', `items.${index}.url`, 'required');
    if (item.kind !== 'page') {
      pageIds.push(null);
      continue;
    }
    if (!item.content_page_id) throw fieldError('guest_guide', `items.${index}.content_page_id`, 'required');
    const segment = item.content_page_id;
    const [page] = await tx.query<{ id: number }>(
      `select id from content_pages where property_id = $1 and ${isUuid(segment) ? 'external_id = $2::uuid' : 'slug = $2'}`,
      [property.id, segment],
    );
    if (!page) throw new ApiError('errors.qc.content_page_not_found', { item: index });
    pageIds.push(page.id);
  }
  // The guide already stored writes nothing: its items keep their ids and no guest_guide.updated goes out
  // (spec 6.3: the event says the guide changed).
  if (await sameGuide(tx, property.id, items, pageIds)) return readGuide(tx, property.id);
  await tx.sql`delete from guest_guide_items where property_id = ${property.id}`;
  for (const [index, item] of items.entries()) {
    await tx.sql`
      insert into guest_guide_items (property_id, position, kind, title, title_tr, text, url, content_page_id)
      values (${property.id}, ${index}, ${item.kind}, ${item.title ?? ''}, ${item.title_tr ?? {}}, ${item.text ?? {}},
        ${item.kind === 'link' ? (item.url ?? null) : null}, ${pageIds[index] ?? null})`;
  }
  await recordEvent(tx, {
    type: 'guest_guide.updated',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, items: items.length },
  });
  return readGuide(tx, property.id);
}
