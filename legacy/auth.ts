import { sha256Hex } from '../server/core/auth/secrets.ts';
import type { Db } from '../server/core/db/db.ts';
import { LegacyError, messages } from './messages.ts';

/** The PMS behind a legacy api key: one key is one PMS on one property. */
export interface LegacyCaller {
  keyId: number;
  customerId: number;
  propertyId: number;
  pmsName: string;
  timezone: string;
  currency: string;
  /** A shadow property validates calendar pushes but writes nothing (spec 1, property mode). */
  mode: 'shadow' | 'live';
}

/**
 * `api_key` query parameter (spec 5.8): missing or empty, unknown, inactive each have their own 401 message.
 * Keys are stored as SHA-256 hex, so the lookup compares digests, never the key itself.
 */
export async function authenticateLegacyKey(db: Db, apiKey: unknown): Promise<LegacyCaller> {
  if (typeof apiKey !== 'string' || apiKey === '') throw new LegacyError(401, messages.auth.missingKey);
  const [row] = await db.sql<LegacyCaller & { active: boolean }>`
    select k.id as "keyId", k.customer_id as "customerId", k.property_id as "propertyId", k.pms_name as "pmsName",
      k.active, p.timezone, p.currency, p.mode
    from legacy_api_keys k join properties p on p.id = k.property_id
    where k.key_hash = ${sha256Hex(apiKey)}`;
  if (!row) throw new LegacyError(401, messages.auth.unknownKey);
  if (!row.active) throw new LegacyError(401, messages.auth.inactiveKey);
  const { active: _, ...caller } = row;
  return { ...caller, currency: caller.currency.trim() };
}
