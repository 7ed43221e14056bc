import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { freePort } from '../../testing/free-port.ts';
import { startTestApp, TEST_KEY_ENCRYPTION_KEY, type TestApp } from '../../testing/harness.ts';
import { openPostgres } from '../db/postgres.ts';
import { PARTNER_AUDIENCE, signJwt, verifyJwt } from './jwt.ts';
import { importKeyEncryptionKey } from './key-encryption.ts';
import { SigningKeys } from './signing-keys.ts';

/**
 * A token whose kid this process has not loaded makes verification reload the keys from the database. With
 * the database unreachable that reload fails, and the failure must propagate (a 5xx), not read as "the
 * token is invalid" (401): the partner would otherwise drop a perfectly good token.
 */
let t: TestApp;
const unreachable = openPostgres(`postgres://postgres@127.0.0.1:${freePort()}/nowhere`, { max: 1 });

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await unreachable.close();
  await t.close();
});

describe('token verification during a database outage', () => {
  it('propagates the failure to reload keys instead of refusing the token', async () => {
    const token = await signJwt(t.deps.keys, t.deps.clock, PARTNER_AUDIENCE, { sub: 'qcc_outage' });
    const coldKeys = new SigningKeys(unreachable, await importKeyEncryptionKey(TEST_KEY_ENCRYPTION_KEY), t.deps.clock);
    await expect(verifyJwt(coldKeys, t.deps.clock, PARTNER_AUDIENCE, token)).rejects.toThrow();
  });

  it('still refuses a malformed or foreign token without touching the keys', async () => {
    const coldKeys = new SigningKeys(unreachable, await importKeyEncryptionKey(TEST_KEY_ENCRYPTION_KEY), t.deps.clock);
    expect(await verifyJwt(coldKeys, t.deps.clock, PARTNER_AUDIENCE, 'not-a-jwt')).toBeUndefined();
    expect(await verifyJwt(coldKeys, t.deps.clock, PARTNER_AUDIENCE, 'a.b.c')).toBeUndefined();
  });

  it('verifies a good token with keys it has', async () => {
    const token = await signJwt(t.deps.keys, t.deps.clock, PARTNER_AUDIENCE, { sub: 'qcc_fine' });
    expect((await verifyJwt(t.deps.keys, t.deps.clock, PARTNER_AUDIENCE, token))?.sub).toBe('qcc_fine');
  });
});
