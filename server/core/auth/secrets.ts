import { timingSafeEqual } from 'node:crypto';

/** 256-bit random secret, base64url. */
export function randomSecret(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
}

/** Secrets are high-entropy random values, so a plain SHA-256 is the right stored form (no KDF needed). */
export function sha256Hex(value: string | Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(value).digest('hex');
}

/**
 * Constant-time comparison of two secrets, of any lengths: their SHA-256 digests are compared, so the time taken
 * tells neither where they differ nor how long the expected one is (a bare length check before the comparison
 * answered a wrong length sooner: the operator token's length showed through the timing).
 */
export function safeEqual(a: string, b: string): boolean {
  const x = new Bun.CryptoHasher('sha256').update(a).digest();
  const y = new Bun.CryptoHasher('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}
