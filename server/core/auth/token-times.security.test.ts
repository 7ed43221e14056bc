import { describe, expect, it } from 'bun:test';
import { type JWTHeaderParameters, SignJWT } from 'jose';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { DASHBOARD_AUDIENCE, IAT_SKEW_SECONDS, ISSUER, MAX_TOKEN_LIFETIME_SECONDS, PARTNER_AUDIENCE } from './jwt.ts';

/**
 * Issue 25 N12: tokens signed with the real key passed with `exp` 100 years ahead, `iat` in the future and an
 * unknown `jku`. A token now lives at most MAX_TOKEN_LIFETIME_SECONDS from its `iat`, which may run at most
 * IAT_SKEW_SECONDS ahead of our clock, and a header naming another key source is refused.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const YEAR = 365 * 24 * 3600;

interface Shape {
  iat?: number;
  exp?: number;
  header?: Partial<JWTHeaderParameters>;
  audience?: string;
  claims?: Record<string, unknown>;
}

/** A token signed with the service's own current key: only its times or header are off. */
async function signed(shape: Shape): Promise<string> {
  const signer = await t.deps.keys.signer();
  const jwt = new SignJWT({ sub: demo.client.client_id, ...shape.claims })
    .setProtectedHeader({ alg: 'RS256', kid: signer.kid, ...shape.header })
    .setIssuer(ISSUER)
    .setAudience(shape.audience ?? PARTNER_AUDIENCE)
    .setJti(crypto.randomUUID());
  if (shape.iat !== undefined) jwt.setIssuedAt(shape.iat);
  if (shape.exp !== undefined) jwt.setExpirationTime(shape.exp);
  return jwt.sign(signer.privateKey);
}

const now = () => Math.floor(t.clock.now().getTime() / 1000);
const properties = async (token: string) => (await t.request('GET', '/v1/qc/properties', { token })).status;

describe('token lifetime and header', () => {
  it('accepts a token shaped like the ones the service signs', async () => {
    expect(await properties(await signed({ iat: now(), exp: now() + MAX_TOKEN_LIFETIME_SECONDS }))).toBe(200);
  });

  it('refuses a token that claims to live longer than an hour, even signed with the real key', async () => {
    expect(await properties(await signed({ iat: now(), exp: now() + 100 * YEAR }))).toBe(401);
    expect(await properties(await signed({ iat: now(), exp: now() + MAX_TOKEN_LIFETIME_SECONDS + 1 }))).toBe(401);
  });

  it('refuses a token without iat: its lifetime cannot be checked', async () => {
    expect(await properties(await signed({ exp: now() + 600 }))).toBe(401);
  });

  it('refuses an iat further ahead than the clock skew, accepts one within it', async () => {
    const ahead = now() + IAT_SKEW_SECONDS + 60;
    expect(await properties(await signed({ iat: ahead, exp: ahead + 600 }))).toBe(401);
    const skewed = now() + IAT_SKEW_SECONDS - 10;
    expect(await properties(await signed({ iat: skewed, exp: skewed + 600 }))).toBe(200);
  });

  it('refuses a header naming another key source (jku, jwk, x5u)', async () => {
    const times = { iat: now(), exp: now() + 600 };
    for (const header of [
      { jku: 'https://attacker.example/jwks.json' },
      { x5u: 'https://attacker.example/cert.pem' },
      { jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } },
    ]) {
      expect([header, await properties(await signed({ ...times, header }))]).toEqual([header, 401]);
    }
  });

  it('holds for dashboard sessions too', async () => {
    const session = await signed({
      audience: DASHBOARD_AUDIENCE,
      claims: { sub: `customer:${demo.customer_id}`, customer_id: demo.customer_id },
      iat: now(),
      exp: now() + 100 * YEAR,
    });
    const res = await t.request('GET', '/api/v1/pem-systems/qc/api-tokens', { token: session });
    expect(res.status).toBe(401);
  });
});

// A verified token is remembered until it expires (./jwt.ts, issue 27: an RS256 verification per request cost as much
// as the rest of a read). What was checked once must keep holding: the expiry, and the key.
describe('a token this process verified before', () => {
  it('is refused once it expires', async () => {
    const token = await signed({ iat: now(), exp: now() + 120 });
    expect(await properties(token)).toBe(200);
    expect(await properties(token)).toBe(200);
    t.clock.advance(119_000);
    expect(await properties(token)).toBe(200);
    t.clock.advance(1_000);
    expect(await properties(token)).toBe(401);
  });

  it('is refused once its key is taken out of the database and the keys are read again', async () => {
    const token = await signed({ iat: now(), exp: now() + 600 });
    expect(await properties(token)).toBe(200);
    const { kid } = await t.deps.keys.signer();
    // A compromised key taken out by hand: reading the keys again makes a new signer, and the old kid is gone.
    await t.deps.db.sql`delete from signing_keys where kid = ${kid}`;
    await t.deps.keys.load();
    expect(await properties(token)).toBe(401);
    expect(await properties(await signed({ iat: now(), exp: now() + 600 }))).toBe(200);
  });
});
