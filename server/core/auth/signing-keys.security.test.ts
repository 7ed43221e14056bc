import { describe, expect, it } from 'bun:test';
import { generateKeyPair, SignJWT } from 'jose';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { ISSUER, PARTNER_AUDIENCE } from './jwt.ts';
import { importKeyEncryptionKey, openPrivateJwk } from './key-encryption.ts';

/**
 * Issue 16 defect 4: `signing_keys.private_jwk` held the signing key in clear, so whoever read the database
 * forged tokens for any client. Keys are sealed under a key-encryption key kept outside the database, rotate
 * with a new kid (old keys verify until their tokens expire), and tokens without exp are refused.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

const properties = (token: string) => t.request('GET', '/v1/qc/properties', { token });

describe('signing keys at rest', () => {
  it('leaves nothing in the database a token could be signed with', async () => {
    await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const rows = await t.deps.db.sql<Record<string, unknown>>`select * from signing_keys`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_jwk).toBeNull();
      // An RSA private key shows its private exponent `d` (and primes p, q) in any JWK form.
      expect(JSON.stringify(row)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
      expect(String(row.private_jwk_sealed)).toMatch(/^v1\./);
      await expect(
        openPrivateJwk(
          await importKeyEncryptionKey(Buffer.alloc(32, 7).toString('base64url')),
          String(row.kid),
          String(row.private_jwk_sealed),
        ),
      ).rejects.toThrow('cannot be opened');
    }
  });

  it('refuses a token signed with any other key under a real kid', async () => {
    const { kid } = await t.deps.keys.signer();
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ sub: demo.client.client_id })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(ISSUER)
      .setAudience(PARTNER_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await properties(forged)).status).toBe(401);
  });

  it('refuses a token without exp, even one signed with the real key', async () => {
    const signer = await t.deps.keys.signer();
    const eternal = await new SignJWT({ sub: demo.client.client_id })
      .setProtectedHeader({ alg: 'RS256', kid: signer.kid })
      .setIssuer(ISSUER)
      .setAudience(PARTNER_AUDIENCE)
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .sign(signer.privateKey);
    expect((await properties(eternal)).status).toBe(401);
  });
});

describe('signing-key rotation', () => {
  it('signs with a new kid, keeps the old one verifying until its tokens expire, then drops it', async () => {
    const before = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const oldKid = (await t.deps.keys.signer()).kid;
    const rotated = await t.ops('POST', '/ops/signing-keys/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.retired).toContain(oldKid);
    const newKid = rotated.body.data.kid as string;
    expect(newKid).not.toBe(oldKid);

    const jwks = async () =>
      ((await t.request('GET', '/v1/qc/.well-known/jwks.json')).body.keys as { kid: string }[]).map((k) => k.kid);
    expect(await jwks()).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect((await properties(before)).status).toBe(200);
    const after = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    expect(JSON.parse(Buffer.from(after.split('.')[0] as string, 'base64url').toString()).kid).toBe(newKid);

    t.clock.advance(2 * 3600_000);
    await t.deps.keys.load();
    expect(await jwks()).not.toContain(oldKid);
    expect(await jwks()).toContain(newKid);
  });
});
