import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';
import { sha256Hex } from './secrets.ts';
import type { SigningKeys } from './signing-keys.ts';

export const ISSUER = 'qc-connectivity';
export const PARTNER_AUDIENCE = 'qc-partner-api';
/** Dashboard session tokens (the platform's dashboard SSO; minted by the operator API here). */
export const DASHBOARD_AUDIENCE = 'qc-dashboard';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** The longest lifetime (`exp - iat`) a token may claim: every token we sign lives ACCESS_TOKEN_TTL_SECONDS. */
export const MAX_TOKEN_LIFETIME_SECONDS = ACCESS_TOKEN_TTL_SECONDS;
/** How far ahead of our clock a token's `iat` may be: clocks of several processes drift a little, not more. */
export const IAT_SKEW_SECONDS = 60;
/**
 * Header parameters that point at or carry a key. We sign with none of them and verify only against our own
 * keys; a token naming another key source (an attacker's `jku`) is refused rather than silently ignored.
 */
const KEY_SOURCE_HEADERS = ['jku', 'jwk', 'x5u', 'x5c'] as const;

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
  const key = await keys.signer();
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
 * Verifies signature, issuer, audience and expiry, and the token's own times: `iat` and `exp` are required,
 * `exp - iat` at most MAX_TOKEN_LIFETIME_SECONDS and `iat` at most IAT_SKEW_SECONDS ahead, so even a token
 * signed with our key (a leaked key, a signing bug) cannot live for years. Only RS256 is accepted, so a token
 * re-signed with `alg: none` or HS256 (using the public key as an HMAC secret) fails; a header naming another
 * key source (`jku`, `jwk`, `x5u`, `x5c`) fails. Returns undefined for any token that
 * does not verify; a failure to read the keys (the database down while an unknown kid reloads them) is not
 * the token's fault and propagates, so an outage never reads as 401.
 */
export async function verifyJwt(
  keys: SigningKeys,
  clock: Clock,
  audience: string,
  token: string,
): Promise<Claims | undefined> {
  const cacheKey = verifiedKey(audience, token);
  const seen = verified.get(cacheKey);
  if (seen && seen.exp > Math.floor(clock.now().getTime() / 1000) && keys.heldKey(seen.kid) === seen.key)
    return seen.claims;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch (err) {
    return refused(err);
  }
  if (header.alg !== 'RS256' || typeof header.kid !== 'string') return undefined;
  if (KEY_SOURCE_HEADERS.some((name) => name in header)) return undefined;
  const kid = header.kid;
  // Outside the try: reading the keys may reach the database, and its failure is not the token's.
  const key = await keys.publicKey(kid);
  if (!key) return undefined;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      issuer: ISSUER,
      audience,
      currentDate: clock.now(),
      // A token without exp would be valid for good: every token we sign has both.
      requiredClaims: ['exp', 'iat'],
    });
    const { exp, iat } = payload as { exp: number; iat: number };
    const now = Math.floor(clock.now().getTime() / 1000);
    if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS || iat > now + IAT_SKEW_SECONDS) return undefined;
    if (typeof payload.sub !== 'string') return undefined;
    const claims = Object.freeze(payload) as Claims;
    // A token with `nbf` is checked in full each time (we sign none): a cached one would skip its start.
    if (payload.nbf === undefined) {
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(cacheKey, { claims, exp, kid, key });
    }
    return claims;
  } catch (err) {
    return refused(err);
  }
}

/**
 * Tokens this process verified, until they expire: an RS256 verification costs about 37 us of CPU, as much again as
 * the rest of a read, and a partner sends one token for up to an hour (issue 27). Keyed by the SHA-256 of the token
 * (no bearer token is kept) and the audience. A hit holds while the clock is before `exp` and the key that verified
 * it is still the one this process holds for its kid: a reload of the keys (a rotation, a key dropped) verifies
 * again. Revocation does not depend on it: authenticate() reads the client's row (its principal cache) either way.
 */
const verified = new Map<string, { claims: Claims; exp: number; kid: string; key: CryptoKey | Uint8Array }>();
// Distinct live tokens are few per process; the bound keeps a flood of valid tokens from growing memory.
const MAX_VERIFIED = 10_000;

const verifiedKey = (audience: string, token: string) => `${audience}\n${sha256Hex(token)}`;

/** jose refuses a token with a JOSEError, or a TypeError for one it cannot even split; anything else propagates. */
function refused(err: unknown): undefined {
  if (err instanceof errors.JOSEError || err instanceof TypeError) return undefined;
  throw err;
}
