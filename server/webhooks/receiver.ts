import { signatureMatches } from './signature.ts';

/**
 * Receiver-side verification for partners (spec 6.2), with no dependency beyond signature.ts: copy both
 * files. It checks, in this order: the headers are present, the timestamp is within the tolerance (5
 * minutes either way), the subscription is one of yours, the signature matches one of your secrets
 * (constant-time, over the raw body bytes), and the delivery id was not seen before. A duplicate is
 * reported as such: answer it with 2xx and do nothing, since the first copy was already handled.
 *
 * During a secret rotation pass both secrets, newest first, for 24 hours: retries of deliveries made
 * before the rotation stay signed with the previous secret for that long.
 */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  property_id: string | null;
  data: Record<string, unknown>;
}

/** Remembers delivery ids. `add` answers false when the id was already there. */
export interface SeenStore {
  add(deliveryId: string): boolean | Promise<boolean>;
}

export interface VerifyOptions {
  /** Signing secrets to accept, newest first. */
  secrets: readonly string[];
  /** Subscription ids you own (X-Qc-Subscription); omit to accept any. */
  subscriptionIds?: readonly string[];
  /** Duplicate detection; omit to skip it. */
  seen?: SeenStore;
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). */
  now?: () => number;
}

export type Rejection =
  | 'missing_header'
  | 'stale_timestamp'
  | 'unknown_subscription'
  | 'bad_signature'
  | 'malformed_body'
  | 'duplicate';

export type Verification =
  | {
      ok: true;
      event: WebhookEvent;
      deliveryId: string;
      subscriptionId: string;
      attempt: number;
      /** Index in `secrets` of the secret that signed it. */
      secretIndex: number;
    }
  | { ok: false; reason: Rejection };

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

interface HeaderSource {
  get(name: string): string | null;
}

export async function verifyWebhook(
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  options: VerifyOptions,
): Promise<Verification> {
  const timestamp = headers.get('x-qc-timestamp');
  const signature = headers.get('x-qc-signature-256');
  const deliveryId = headers.get('x-qc-delivery');
  const subscriptionId = headers.get('x-qc-subscription');
  if (!timestamp || !signature || !deliveryId || !subscriptionId) return { ok: false, reason: 'missing_header' };

  const nowSeconds = (options.now ?? Date.now)() / 1000;
  const tolerance = options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  if (options.subscriptionIds && !options.subscriptionIds.includes(subscriptionId)) {
    return { ok: false, reason: 'unknown_subscription' };
  }

  let secretIndex = -1;
  for (const [index, secret] of options.secrets.entries()) {
    if (await signatureMatches(secret, timestamp, rawBody, signature)) {
      secretIndex = index;
      break;
    }
  }
  if (secretIndex < 0) return { ok: false, reason: 'bad_signature' };

  let event: WebhookEvent;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEvent;
  } catch {
    return { ok: false, reason: 'malformed_body' };
  }
  // Only authentic deliveries reach the seen-store, so forged requests cannot poison it.
  if (options.seen && !(await options.seen.add(deliveryId))) return { ok: false, reason: 'duplicate' };

  return {
    ok: true,
    event,
    deliveryId,
    subscriptionId,
    attempt: Number(headers.get('x-qc-attempt') ?? 1),
    secretIndex,
  };
}

/** Reads the raw body of a fetch-style Request and verifies it. */
export async function verifyWebhookRequest(request: Request, options: VerifyOptions): Promise<Verification> {
  return verifyWebhook(request.headers, new Uint8Array(await request.arrayBuffer()), options);
}

/**
 * An in-memory seen-store keeping ids for `ttlMs` (48 hours by default: longer than the whole retry
 * ladder). Use a shared store (Redis SET NX with expiry, a unique database column) when several processes
 * receive webhooks.
 */
export function memorySeenStore(ttlMs = 48 * 3600_000, now: () => number = Date.now): SeenStore {
  const seen = new Map<string, number>();
  return {
    add(deliveryId) {
      const at = now();
      for (const [id, expires] of seen) {
        if (expires > at) break;
        seen.delete(id);
      }
      const expires = seen.get(deliveryId);
      if (expires !== undefined && expires > at) return false;
      seen.set(deliveryId, at + ttlMs);
      return true;
    },
  };
}
