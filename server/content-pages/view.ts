import type { Db } from '../core/db/db.ts';
import { imagesOf } from '../gallery/usages.ts';
import { type PageRow, pageTarget } from './pages.ts';

export async function pageView(db: Db, row: PageRow) {
  const images = await imagesOf(db, pageTarget(row));
  return {
    id: row.external_id,
    slug: row.slug,
    title: row.title,
    title_tr: row.title_tr,
    body_html: row.body_html,
    is_published: row.is_published,
    position: row.position,
    image_ids: images.map((i) => i.external_id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
