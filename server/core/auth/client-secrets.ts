import type { Db } from '../db/db.ts';
import { safeEqual, sha256Hex } from './secrets.ts';

/** An OAuth client's stored secrets: the current one and, during a rotation's overlap, the one it replaced. */
export interface StoredClientSecrets {
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Whether `secret` is the client's secret, or the one it replaced while that is inside its overlap. Both
 * comparisons always run, in constant time, so the answer's timing tells nothing about which one matched.
 */
export function clientSecretAccepted(stored: StoredClientSecrets, secret: string, now: Date): boolean {
  const hash = sha256Hex(secret);
  const current = safeEqual(hash, stored.secret_hash);
  const previous = safeEqual(hash, stored.previous_secret_hash ?? '');
  const inOverlap = stored.previous_secret_expires_at !== null && stored.previous_secret_expires_at > now;
  return current || (previous && inOverlap);
}

/**
 * What a token request's credentials are, for the token endpoint's budgets (server/core/limits/rate-limit.ts):
 * an active OAuth client's accepted secret, a wrong secret for a client that exists, or no such client.
 */
export async function clientSecretVerdict(
  db: Db,
  clientId: string,
  secret: string | undefined,
  now: Date,
): Promise<'accepted' | 'refused' | 'unknown'> {
  const [stored] = await db.sql<StoredClientSecrets>`
    select secret_hash, previous_secret_hash, previous_secret_expires_at
    from api_clients where client_id = ${clientId} and kind = 'oauth' and revoked_at is null`;
  if (!stored) return 'unknown';
  return secret !== undefined && clientSecretAccepted(stored, secret, now) ? 'accepted' : 'refused';
}
