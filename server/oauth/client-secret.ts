import { randomSecret, sha256Hex } from '../core/auth/secrets.ts';
import type { Db } from '../core/db/db.ts';

/**
 * How long a rotated-out OAuth client secret still gets tokens: the same 24 hours a webhook signing secret
 * keeps after rotation (spec 6.2), long enough to roll every deployment of the partner over to the new one.
 */
export const CLIENT_SECRET_OVERLAP_HOURS = 24;

/** A fresh OAuth client secret (256 random bits); only its SHA-256 is stored. */
export function newClientSecret(): string {
  return `qcs_${randomSecret()}`;
}

export interface RotatedSecret {
  client_id: string;
  /** Shown this once: only its hash is stored. */
  client_secret: string;
  secret_rotated_at: string;
  previous_secret_expires_at: string;
}

/**
 * Gives an active OAuth client a new secret; the one it replaces keeps working for
 * CLIENT_SECRET_OVERLAP_HOURS. A second rotation inside the overlap ends the older secret at once: only the
 * secret just replaced overlaps. `customerId` confines the rotation to one customer's clients (the
 * dashboard); the operator passes none. Undefined when no such active client exists.
 */
export async function rotateClientSecret(
  db: Db,
  now: Date,
  target: { clientId: string; customerId?: number },
): Promise<RotatedSecret | undefined> {
  const secret = newClientSecret();
  const expires = new Date(now.getTime() + CLIENT_SECRET_OVERLAP_HOURS * 3600_000);
  const [row] = await db.sql<{ client_id: string }>`
    update api_clients set previous_secret_hash = secret_hash, previous_secret_expires_at = ${expires},
      secret_hash = ${sha256Hex(secret)}, secret_rotated_at = ${now}
    where client_id = ${target.clientId} and kind = 'oauth' and revoked_at is null
      and (${target.customerId ?? null}::bigint is null or customer_id = ${target.customerId ?? null})
    returning client_id`;
  if (!row) return undefined;
  return {
    client_id: row.client_id,
    client_secret: secret,
    secret_rotated_at: now.toISOString(),
    previous_secret_expires_at: expires.toISOString(),
  };
}
