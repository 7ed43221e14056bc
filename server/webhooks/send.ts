import { createHmac } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { destinationProblem, type LookupFn } from '../core/ssrf-guard.ts';
import { SIGNATURE_PREFIX } from './signature.ts';

/** Spec 6.1: a fixed product token ending in `-Webhooks/1`. */
export const USER_AGENT = 'QcConnectivity-Webhooks/1';

export interface Outgoing {
  url: string;
  body: string;
  secret: string;
  subscriptionId: string;
  deliveryId: string;
  eventType: string;
  attempt: number;
  /** Attempt time; X-Qc-Timestamp and the signature are computed per attempt. */
  at: Date;
  timeoutMs: number;
  /** Whose time the deadline and the duration run on (the injectable clock). */
  clock: Clock;
  allowPrivate: boolean;
  lookup?: LookupFn;
}

export interface SendOutcome {
  success: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One POST of a delivery. Success is any 2xx within the deadline; a non-2xx, a timeout, a refused
 * connection, a TLS failure or a destination that now resolves to a private address is a failure.
 * Redirects are not followed (a 3xx is a failure): following them would bypass the destination check.
 */
export async function sendDelivery(out: Outgoing): Promise<SendOutcome> {
  const started = out.clock.now().getTime();
  const elapsed = () => out.clock.now().getTime() - started;
  const signal = out.clock.deadline(out.timeoutMs);
  try {
    const problem = await withSignal(destinationProblem(out.url, out.allowPrivate, out.lookup), signal);
    if (problem)
      return { success: false, status: null, error: `destination_refused: ${problem}`, durationMs: elapsed() };
    const timestamp = Math.floor(out.at.getTime() / 1000);
    const res = await fetch(out.url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-qc-timestamp': String(timestamp),
        'x-qc-signature-256': sign(out.secret, timestamp, out.body),
        'x-qc-subscription': out.subscriptionId,
        'x-qc-delivery': out.deliveryId,
        'x-qc-event': out.eventType,
        'x-qc-attempt': String(out.attempt),
      },
      body: out.body,
    });
    // Only the status matters; drop the body without waiting for it.
    void res.body?.cancel().catch(() => {});
    const success = res.status >= 200 && res.status < 300;
    return { success, status: res.status, error: success ? null : `http_${res.status}`, durationMs: elapsed() };
  } catch (err) {
    return { success: false, status: null, error: describeFailure(err, signal), durationMs: elapsed() };
  }
}

/**
 * The spec 6.1 signature, as signature.ts's signPayload computes it (receivers verify with that file), but
 * synchronous: Web Crypto's sign hands every HMAC to a worker thread and back, which cost the delivery path
 * more than the HMAC itself.
 */
function sign(secret: string, timestamp: number, body: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function describeFailure(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/i.test(code)) return `tls_error: ${code}`;
  // 300 characters, not UTF-16 units: a message is never cut inside a character.
  return Array.from(`connection_error: ${code ?? message}`)
    .slice(0, 300)
    .join('');
}
