import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';
import type { SigningKeys } from './signing-keys.ts';

export const ISSUER = 'qc-connectivity';
export const PARTNER_AUDIENCE = 'qc-partner-api';
/** Dashboard session tokens (the platform's dashboard SSO; minted by the operator API here). */
export const DASHBOARD_AUDIENCE = 'qc-dashboard';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface Claims {
  sub: string;
  scope?: string;
  customer_id?: number;
  [claim: string]: unknown;
}

export async function signJwt(
  keys: SigningKeys,
  clock: Clock,
  audience: string,
  claims: Claims,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
): Promise<string> {
  const key = keys.current();
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(key.privateKey);
}

/**
 * Verifies signature, issuer, audience and expiry. Only RS256 is accepted, so a token re-signed with
 * `alg: none` or HS256 (using the public key as an HMAC secret) fails. Returns undefined on any failure.
 */
export async function verifyJwt(
  keys: SigningKeys,
  clock: Clock,
  audience: string,
  token: string,
): Promise<Claims | undefined> {
  try {
    const { kid, alg } = decodeProtectedHeader(token);
    if (alg !== 'RS256' || typeof kid !== 'string') return undefined;
    const key = await keys.publicKey(kid);
    if (!key) return undefined;
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      issuer: ISSUER,
      audience,
      currentDate: clock.now(),
    });
    return typeof payload.sub === 'string' ? (payload as Claims) : undefined;
  } catch {
    return undefined;
  }
}
