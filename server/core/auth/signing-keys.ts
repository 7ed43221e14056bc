import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { openPrivateJwk, sealPrivateJwk } from './key-encryption.ts';

type KeyLike = CryptoKey;

export interface SigningKey {
  kid: string;
  privateKey: KeyLike | Uint8Array;
  publicJwk: JWK;
}

/** The longest-lived token we sign (partner access tokens and dashboard sessions: one hour). */
const LONGEST_TOKEN_MS = 3600_000;
/** How stale a process's view of the keys may get: a rotation elsewhere is seen within this. */
const RELOAD_EVERY_MS = 60_000;
/**
 * A retired key keeps verifying (and stays in the JWKS) until every token it signed has expired: the longest
 * token lifetime, plus the reload interval during which another process may still have signed with it.
 */
export const VERIFY_AFTER_RETIREMENT_MS = LONGEST_TOKEN_MS + RELOAD_EVERY_MS;

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_jwk: JWK | null;
  private_jwk_sealed: string | null;
  retired_at: Date | null;
}

/**
 * RS256 signing keys live in the database so every process signs and verifies with the same set; their
 * private halves sealed under the key-encryption key (./key-encryption.ts). The newest unretired key signs;
 * it and the keys retired less than VERIFY_AFTER_RETIREMENT_MS ago verify and are published in the JWKS.
 * `rotate()` retires the signer and makes a new one.
 */
export class SigningKeys {
  #keys = new Map<string, { publicKey: KeyLike | Uint8Array; publicJwk: JWK }>();
  #current: SigningKey | undefined;
  #loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly kek: CryptoKey,
    private readonly clock: Clock,
  ) {}

  async load(): Promise<void> {
    let rows = await this.#rows();
    if (!rows.some((r) => r.retired_at === null)) {
      await this.#generate(false);
      rows = await this.#rows();
    }
    this.#keys.clear();
    for (const row of rows) {
      this.#keys.set(row.kid, { publicKey: await importJWK(row.public_jwk, 'RS256'), publicJwk: row.public_jwk });
    }
    const signer = rows.find((r) => r.retired_at === null);
    if (signer) {
      this.#current = {
        kid: signer.kid,
        privateKey: await importJWK(await this.#privateJwk(signer), 'RS256'),
        publicJwk: signer.public_jwk,
      };
    }
    this.#loadedAt = Date.now();
  }

  /** The key to sign with, re-read when the view is older than the reload interval (a rotation elsewhere). */
  async signer(): Promise<SigningKey> {
    if (Date.now() - this.#loadedAt > RELOAD_EVERY_MS) await this.load();
    if (!this.#current) throw new Error('signing keys not loaded');
    return this.#current;
  }

  /** Verification key by kid; reloads once on an unknown kid (another process may have rotated). */
  async publicKey(kid: string): Promise<KeyLike | Uint8Array | undefined> {
    if (!this.#keys.has(kid)) await this.load();
    return this.heldKey(kid);
  }

  /** The verification key this process holds for `kid` now, without a reload (./jwt.ts checks a cached verification). */
  heldKey(kid: string): KeyLike | Uint8Array | undefined {
    return this.#keys.get(kid)?.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#keys.values()].map((k) => k.publicJwk) };
  }

  /** Retires the signing key (it keeps verifying until its tokens have expired) and signs with a new one. */
  async rotate(): Promise<{ kid: string; retired: string[] }> {
    const result = await this.#generate(true);
    await this.load();
    return result;
  }

  async #rows(): Promise<KeyRow[]> {
    const since = new Date(this.clock.now().getTime() - VERIFY_AFTER_RETIREMENT_MS);
    return this.db.sql<KeyRow>`
      select kid, public_jwk, private_jwk, private_jwk_sealed, retired_at from signing_keys
      where retired_at is null or retired_at > ${since}
      order by retired_at is not null, created_at desc, kid`;
  }

  /** Opens a sealed key; a key stored in clear by an older version is sealed now and its clear copy erased. */
  async #privateJwk(row: KeyRow): Promise<JWK> {
    if (row.private_jwk_sealed) return openPrivateJwk(this.kek, row.kid, row.private_jwk_sealed);
    if (!row.private_jwk) throw new Error(`signing key ${row.kid} has no private key`);
    const sealed = await sealPrivateJwk(this.kek, row.kid, row.private_jwk);
    await this.db
      .sql`update signing_keys set private_jwk_sealed = ${sealed}, private_jwk = null where kid = ${row.kid}`;
    return row.private_jwk;
  }

  async #generate(rotating: boolean): Promise<{ kid: string; retired: string[] }> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const kid = `qc-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const sealed = await sealPrivateJwk(this.kek, kid, { ...(await exportJWK(privateKey)), kid, alg: 'RS256' });
    const now = this.clock.now();
    // Two processes starting on an empty database both generate; the lock keeps exactly one key.
    return this.db.tx(async (tx) => {
      await tx.sql`select pg_advisory_xact_lock(7210002)`;
      const active = await tx.sql<{ kid: string }>`select kid from signing_keys where retired_at is null`;
      if (active.length && !rotating) return { kid: active[0]?.kid as string, retired: [] };
      await tx.sql`update signing_keys set retired_at = ${now} where retired_at is null`;
      await tx.sql`insert into signing_keys (kid, alg, public_jwk, private_jwk_sealed, created_at)
        values (${kid}, 'RS256', ${publicJwk}, ${sealed}, ${now})`;
      return { kid, retired: active.map((r) => r.kid) };
    });
  }
}
