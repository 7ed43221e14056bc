import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { type Config, ConfigError } from '../config.ts';

/**
 * Private signing keys are stored sealed (AES-256-GCM, Web Crypto) under a key-encryption key that never
 * enters the database: QC_KEY_ENCRYPTION_KEY (32 bytes, base64url), or one generated on first start and kept
 * in the data dir, like the operator token. Reading the database alone no longer lets anyone forge tokens.
 * Every process sharing a database must use the same key.
 */
const FILE = 'key-encryption-key';
const SEALED_PREFIX = 'v1.';

export async function loadKeyEncryptionKey(config: Config): Promise<{ key: CryptoKey; generated: boolean }> {
  let encoded = config.keyEncryptionKey;
  let generated = false;
  if (!encoded) {
    const file = join(config.dataDir, FILE);
    if (existsSync(file)) encoded = readFileSync(file, 'utf8').trim();
    else {
      mkdirSync(config.dataDir, { recursive: true });
      encoded = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      writeFileSync(file, `${encoded}\n`, { mode: 0o600 });
      generated = true;
    }
  }
  return { key: await importKeyEncryptionKey(encoded), generated };
}

export function importKeyEncryptionKey(encoded: string): Promise<CryptoKey> {
  const raw = Buffer.from(encoded, 'base64url');
  if (raw.byteLength !== 32) throw new Error('the key-encryption key must be 32 bytes, base64url');
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** `v1.<iv>.<ciphertext>`; the kid is authenticated data, so a sealed key cannot be moved to another row. */
export async function sealPrivateJwk(kek: CryptoKey, kid: string, jwk: JWK): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(jwk));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(kid) }, kek, plain);
  return `${SEALED_PREFIX}${Buffer.from(iv).toString('base64url')}.${Buffer.from(sealed).toString('base64url')}`;
}

export async function openPrivateJwk(kek: CryptoKey, kid: string, sealed: string): Promise<JWK> {
  const [iv, data] = sealed.startsWith(SEALED_PREFIX) ? sealed.slice(SEALED_PREFIX.length).split('.') : [];
  if (!iv || !data) throw new Error(`signing key ${kid}: not a sealed key`);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: Buffer.from(iv, 'base64url'), additionalData: aad(kid) },
      kek,
      Buffer.from(data, 'base64url'),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as JWK;
  } catch {
    // The operator's to fix, not a bug: start-up stops on it in one line (server/main.ts).
    throw new ConfigError(
      `Invalid configuration: QC_KEY_ENCRYPTION_KEY: the database's signing key ${kid} cannot be opened with this ` +
        'key-encryption key; every process of one database needs the same one (unset: the key generated into the ' +
        'data dir at the first start)',
    );
  }
}

function aad(kid: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`qc-signing-key:${kid}`) as Uint8Array<ArrayBuffer>;
}
