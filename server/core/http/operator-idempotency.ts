import { sha256Hex } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { MAX_KEY_LENGTH } from '../idempotency/idempotent-request.ts';
import { validationError } from './api-error.ts';

/**
 * `Idempotency-Key` on the operator API's creates (POST): the same key and body again within 24 hours answers
 * the first answer (`Idempotency-Replayed: true`) instead of creating a second customer, property or client;
 * another body under the key is 409. Kept in the idempotency store (Redis when configured), like the partner
 * API's keys: it dedups a retry after a timeout or a 503, not one after a COMMIT whose outcome is unknown
 * (`errors.qc.write_outcome_unknown`). The booking intake keeps its key in the database instead, for that case.
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
  const started = await deps.idempotency.start(claimKey, sha256Hex(JSON.stringify(body ?? null)), () =>
    deps.clock.now(),
  );
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
      const kept = answer && {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
        body: JSON.stringify(answer.body),
        at: now.toISOString(),
      };
      await deps.idempotency.finish(claimKey, started.lease, kept, now);
    }
  }
}
