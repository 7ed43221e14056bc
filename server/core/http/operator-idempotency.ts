import { sha256Hex } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { keyOperatorRequest, MAX_KEY_LENGTH } from '../idempotency/idempotent-request.ts';
import { validationError } from './api-error.ts';

/**
 * `Idempotency-Key` on the operator API's creates (POST): the same key and body again within 24 hours answers
 * the first answer (`Idempotency-Replayed: true`) instead of creating a second customer, property or client;
 * another body under the key is 409. Kept in the idempotency store (Redis when configured), like the partner
 * API's keys; a create also keeps the key with what it makes, in its transaction (kept-creates.ts), so a retry
 * after a COMMIT whose outcome is unknown (`errors.qc.write_outcome_unknown`) answers what it made. The booking
 * intake keeps its key with the booking instead (server/bookings/intake-keys.ts).
 */
export async function withOperatorIdempotency(
  deps: Deps,
  request: Request,
  scope: string,
  body: unknown,
  run: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>,
): Promise<Response | undefined> {
  const key = request.headers.get('idempotency-key');
  if (request.method !== 'POST' || key === null) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw validationError({
      idempotency_key: [`customer.operator.messages.${key.length ? 'max_length' : 'min_length'}`],
    });
  const claimKey = `ops:${scope}:${new URL(request.url).pathname}:${key}`;
  const fingerprint = sha256Hex(JSON.stringify(body ?? null));
  const started = await deps.idempotency.start(claimKey, fingerprint, () => deps.clock.now());
  // Also when the store is unreachable: a create keeps the key with what it makes (kept-creates.ts).
  if (started.kind !== 'replay') keyOperatorRequest(request, { scope: sha256Hex(claimKey), fingerprint });
  if (started.kind === 'replay') {
    const { status, headers, body: stored, at } = started.response;
    return new Response(stored, {
      status,
      headers: { ...headers, 'idempotency-replayed': 'true', 'idempotency-original-timestamp': at },
    });
  }
  let answer: Awaited<ReturnType<typeof run>> | undefined;
  try {
    answer = await run();
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  } finally {
    if (started.kind === 'started') {
      // A failure (thrown: a refusal or our 5xx) gives the key back: a retry runs again.
      const now = deps.clock.now();
      const {
        'idempotency-replayed': _,
        'idempotency-original-timestamp': original,
        ...headers
      } = answer?.headers ?? {};
      const kept = answer && {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(answer.body),
        // A create answering what its key made before (kept-creates.ts) replays: its time is the original's.
        at: original ?? now.toISOString(),
      };
      await deps.idempotency.finish(claimKey, started.lease, kept);
    }
  }
}
