/**
 * The webhook signature of spec 6.1: `sha256=` + hex HMAC-SHA256 over `<timestamp>.<raw body>` under the
 * subscription's signing secret. Web Crypto only, so partners can copy this file and receiver.ts into any
 * runtime (Node 20+, Bun, Deno, edge workers).
 */
const encoder = new TextEncoder();

export const SIGNATURE_PREFIX = 'sha256=';

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function signedBytes(timestamp: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${timestamp}.`);
  const tail = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

/** The X-Qc-Signature-256 header value for a body sent at `timestamp` (Unix seconds). */
export async function signPayload(
  secret: string,
  timestamp: number | string,
  body: string | Uint8Array,
): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), signedBytes(String(timestamp), body));
  return SIGNATURE_PREFIX + Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether `header` is the signature of `body` at `timestamp` under `secret`. crypto.subtle.verify compares
 * in constant time, so the answer leaks nothing about how much of a forged signature matched.
 */
export async function signatureMatches(
  secret: string,
  timestamp: string,
  body: string | Uint8Array,
  header: string,
): Promise<boolean> {
  if (!header.startsWith(SIGNATURE_PREFIX)) return false;
  const hex = header.slice(SIGNATURE_PREFIX.length);
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const mac = Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
  return crypto.subtle.verify('HMAC', await hmacKey(secret, 'verify'), mac, signedBytes(timestamp, body));
}
