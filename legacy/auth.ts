import { OUTSIDE_PAUSED_GROUP } from '../server/core/auth/authenticate.ts';
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

/** Who answers this key's PMS (spec 9.4): the legacy service (`shadow`, the port compared with it) or the port. */
export interface LegacyCutoverSetting {
  mode: 'shadow' | 'live';
  /** The key's own legacy base URL; null: the configured default (QC_LEGACY_UPSTREAM_URL). */
  upstreamUrl: string | null;
  /** The operator's override for the key's own upstream: private and loopback addresses allowed. */
  upstreamAllowPrivate: boolean;
}

/** A stored key as one query reads it: the caller, whether it is active, and its cutover setting. */
export interface LegacyKeyRecord {
  caller: LegacyCaller;
  active: boolean;
  cutover: LegacyCutoverSetting;
}

/**
 * The key named by `api_key`, read live on every request (a deactivation or a cutover flip made by any process
 * applies to the next call); undefined when it is missing or unknown. Keys are stored as SHA-256 hex, so the
 * lookup compares digests, never the key itself. A key is active while its own flag is set, its property is still
 * its customer's, and outside a paused group (README, Property groups: pausing takes a property out of every
 * credential's reach, a legacy PMS's included). A disabled property is left to each method, as the legacy service
 * left it: getBookingOffers answers `Property owner not found.` for it (spec 5.8), the others serve it.
 */
export async function findLegacyKey(db: Db, apiKey: unknown): Promise<LegacyKeyRecord | undefined> {
  if (typeof apiKey !== 'string' || apiKey === '') return undefined;
  const [row] = await db.query<
    LegacyCaller & {
      active: boolean;
      cutoverMode: 'shadow' | 'live';
      upstreamUrl: string | null;
      upstreamAllowPrivate: boolean;
    }
  >(
    `select k.id as "keyId", k.customer_id as "customerId", k.property_id as "propertyId", k.pms_name as "pmsName",
      k.active and p.customer_id = k.customer_id
        and ${OUTSIDE_PAUSED_GROUP} as active,
      k.cutover_mode as "cutoverMode",
      k.upstream_url as "upstreamUrl", k.allow_private_upstream as "upstreamAllowPrivate", p.timezone, p.currency, p.mode
    from legacy_api_keys k join properties p on p.id = k.property_id
    where k.key_hash = $1`,
    [sha256Hex(apiKey)],
  );
  if (!row) return undefined;
  const { active, cutoverMode, upstreamUrl, upstreamAllowPrivate, ...caller } = row;
  return {
    caller: { ...caller, currency: caller.currency.trim() },
    active,
    cutover: { mode: cutoverMode, upstreamUrl, upstreamAllowPrivate },
  };
}

/**
 * `api_key` query parameter (spec 5.8): missing or empty, unknown, inactive each have their own 401 message.
 */
export function admitLegacyKey(apiKey: unknown, record: LegacyKeyRecord | undefined): LegacyCaller {
  if (typeof apiKey !== 'string' || apiKey === '') throw new LegacyError(401, messages.auth.missingKey);
  if (!record) throw new LegacyError(401, messages.auth.unknownKey);
  if (!record.active) throw new LegacyError(401, messages.auth.inactiveKey);
  return record.caller;
}
