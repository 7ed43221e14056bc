import { timingSafeEqual } from 'node:crypto';

/** 256-bit random secret, base64url. */
export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** Secrets are high-entropy random values, so a plain SHA-256 is the right stored form (no KDF needed). */
export function sha256Hex(value: string | Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two hex digests (or any equal-length strings). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
