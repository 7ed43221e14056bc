import { iso } from '../core/iso.ts';
import type { SubscriptionRow } from './service.ts';

/** The subscription as every answer shows it; the secret never appears here (create and rotate add it once). */
export function subscriptionView(row: SubscriptionRow) {
  return {
    id: row.external_id,
    url: row.url,
    event_types: row.event_types,
    property_ids: row.property_external_ids,
    all_properties: row.all_properties,
    status: row.status,
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    secret_rotated_at: iso(row.secret_rotated_at),
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
