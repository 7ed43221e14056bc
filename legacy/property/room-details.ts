import type { Deps } from '../../server/core/deps.ts';
import { extensionOf, publicImageUrl } from '../../server/core/media-url.ts';
import { PhpFloat } from '../bytes.ts';

/** Legacy room `type` numbers and their names (spec 2.10). */
const TYPE_NAMES: Record<number, string> = { 4: 'Apartment', 5: 'Villa', 6: 'Studio', 7: 'Room' };

interface RoomRow {
  id: number;
  name: string;
  name_tr: Record<string, string>;
  description: string;
  legacy_type: number;
  sqm_area: number | null;
  regular_beds: number;
  extra_beds: number;
  extra_beds_children_only: number;
  no_beds: number;
  images: string[];
  gallery: { id: string; content_type: string }[];
}

/**
 * The property's room details (spec 2.10), one room when `roomId` is given; ordered by id. `images` are the
 * room's own image URLs, then the public URLs of its gallery images in display order.
 */
export async function roomDetails(
  deps: Pick<Deps, 'db' | 'config'>,
  propertyId: number,
  locale: string | undefined,
  roomId?: number,
) {
  const rows = await deps.db.sql<RoomRow>`
    select id, name, name_tr, description, legacy_type, sqm_area, regular_beds, extra_beds,
      extra_beds_children_only, no_beds, images,
      coalesce((select json_agg(json_build_object('id', g.external_id, 'content_type', g.content_type) order by u.position)
        from gallery_image_usages u join gallery_images g on g.id = u.image_id
        where u.room_type_id = room_types.id), '[]') as gallery
    from room_types
    where property_id = ${propertyId} and deleted_at is null and (${roomId ?? null}::bigint is null or id = ${roomId ?? null}::bigint)
    order by id`;
  return rows.map((r) => ({
    id: r.id,
    name: localized(r.name, r.name_tr, locale),
    description: r.description,
    type: r.legacy_type,
    type_name: TYPE_NAMES[r.legacy_type] ?? 'Room',
    sqm_area: r.sqm_area === null ? null : new PhpFloat(r.sqm_area),
    regular_beds: r.regular_beds,
    extra_beds: r.extra_beds,
    extra_beds_children_only: r.extra_beds_children_only,
    no_beds: r.no_beds,
    images: [...r.images, ...r.gallery.map((g) => publicImageUrl(deps.config, g.id, extensionOf(g.content_type)))],
  }));
}

/**
 * A name at the request locale (`lang` query parameter, e.g. `de` or `de-AT`): the exact tag, else the first
 * translation of the same language, else the untranslated name.
 */
export function localized(name: string, tr: Record<string, string>, locale: string | undefined): string {
  if (!locale) return name;
  const exact = Object.entries(tr).find(([tag]) => tag.toLowerCase() === locale.toLowerCase());
  const language = locale.slice(0, 2).toLowerCase();
  const sameLanguage = Object.entries(tr).find(([tag]) => tag.slice(0, 2).toLowerCase() === language);
  return (exact ?? sameLanguage)?.[1] || name;
}
