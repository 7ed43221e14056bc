import { randomSecret, sha256Hex } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import { requireUpstream } from './cutover-setting.ts';

export interface NewLegacyKey {
  customerId: number;
  propertyId: number;
  active: boolean;
  pmsName?: string;
  /** Absent: `shadow` when a legacy upstream is configured (the key's own or QC_LEGACY_UPSTREAM_URL), else `live`. */
  mode?: 'shadow' | 'live';
  upstreamUrl?: string;
  /** The operator's override for upstreamUrl (checked again before every forward): private addresses allowed. */
  allowPrivateUpstream?: boolean;
}

/** A legacy api_key for one PMS on one property; the key itself is answered once and stored as a digest. */
export async function createLegacyKey(deps: Deps, input: NewLegacyKey): Promise<{ id: number; apiKey: string }> {
  const apiKey = randomSecret(24);
  const upstream = input.upstreamUrl ?? deps.config.legacyCutover.upstreamUrl;
  const mode = input.mode ?? (upstream ? 'shadow' : 'live');
  requireUpstream(mode, upstream);
  const [row] = await deps.db.sql<{ id: number }>`
    insert into legacy_api_keys (key_hash, customer_id, property_id, pms_name, active, cutover_mode, upstream_url,
      allow_private_upstream)
    values (${sha256Hex(apiKey)}, ${input.customerId}, ${input.propertyId}, ${input.pmsName ?? 'pms'}, ${input.active},
      ${mode}, ${input.upstreamUrl ?? null}, ${input.allowPrivateUpstream === true})
    returning id`;
  if (!row) throw new Error('legacy key insert returned no row');
  return { id: row.id, apiKey };
}
