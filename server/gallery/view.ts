import type { Principal } from '../core/auth/principal.ts';
import type { Config } from '../core/config.ts';
import { extensionOf, publicImageUrl } from '../core/media-url.ts';
import type { ImageRow, UsageRow } from './images.ts';

/** A usage as the caller may see it: where it sits outside the token's properties, only its kind shows. */
export function usageView(u: UsageRow, principal: Principal) {
  const visible = principal.propertyIds.has(u.property_id);
  return {
    kind: u.kind,
    property_id: visible ? u.property_external_id : null,
    room_type_id: visible ? u.room_type_external_id : null,
    content_page_id: visible ? u.content_page_external_id : null,
    position: u.position,
    outside_grant: !visible,
  };
}

export function imageView(config: Config, principal: Principal, row: ImageRow, usages: readonly UsageRow[]) {
  return {
    id: row.external_id,
    url: publicImageUrl(config, row.external_id, extensionOf(row.content_type)),
    content_type: row.content_type,
    byte_size: row.byte_size,
    width: row.width,
    height: row.height,
    sha256: row.sha256,
    file_name: row.file_name,
    legacy_file_id: row.legacy_file_id,
    created_at: row.created_at.toISOString(),
    usages: usages.map((u) => usageView(u, principal)),
  };
}
