import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

type KeyLike = CryptoKey;

import type { Db } from '../db/db.ts';

export interface SigningKey {
  kid: string;
  privateKey: KeyLike | Uint8Array;
  publicJwk: JWK;
}

/**
 * RS256 signing keys live in the database so every process signs and verifies with the same set.
 * The newest unretired key signs; all unretired keys verify and are published in the JWKS.
 */
export class SigningKeys {
  #keys = new Map<string, { publicKey: KeyLike | Uint8Array; publicJwk: JWK }>();
  #current: SigningKey | undefined;

  constructor(private readonly db: Db) {}

  async load(): Promise<void> {
    let rows = await this.#rows();
    if (rows.length === 0) {
      await this.#generate();
      rows = await this.#rows();
    }
    this.#keys.clear();
    for (const row of rows) {
      this.#keys.set(row.kid, { publicKey: await importJWK(row.public_jwk, 'RS256'), publicJwk: row.public_jwk });
    }
    const newest = rows[0];
    if (newest) {
      this.#current = {
        kid: newest.kid,
        privateKey: await importJWK(newest.private_jwk, 'RS256'),
        publicJwk: newest.public_jwk,
      };
    }
  }

  current(): SigningKey {
    if (!this.#current) throw new Error('signing keys not loaded');
    return this.#current;
  }

  /** Verification key by kid; reloads once on an unknown kid (another process may have rotated). */
  async publicKey(kid: string): Promise<KeyLike | Uint8Array | undefined> {
    if (!this.#keys.has(kid)) await this.load();
    return this.#keys.get(kid)?.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#keys.values()].map((k) => k.publicJwk) };
  }

  async #rows() {
    return this.db.sql<{ kid: string; public_jwk: JWK; private_jwk: JWK }>`
      select kid, public_jwk, private_jwk from signing_keys where retired_at is null order by created_at desc, kid`;
  }

  async #generate(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const kid = `qc-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
    // Two processes starting on an empty database both generate; the lock keeps exactly one key.
    await this.db.tx(async (tx) => {
      await tx.sql`select pg_advisory_xact_lock(7210002)`;
      const [existing] = await tx.sql`select kid from signing_keys where retired_at is null limit 1`;
      if (existing) return;
      await tx.sql`insert into signing_keys (kid, alg, public_jwk, private_jwk)
        values (${kid}, 'RS256', ${publicJwk}, ${privateJwk})`;
    });
  }
}
