import { sha256Hex } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { keyOperatorRequest, MAX_KEY_LENGTH, replayOf } from '../idempotency/idempotent-request.ts';
import type { ShownOnce } from '../routes/operator-route.ts';
import { validationError } from './api-error.ts';

/**
 * `Idempotency-Key` on the operator API's creates (POST): the same key and body again within 24 hours answers
 * the first answer (`Idempotency-Replayed: true`) instead of creating a second customer, property or client;
 * another body under the key is 409. Kept in the idempotency store (Redis when configured), like the partner
 * API's keys; a create also keeps the key with what it makes, in its transaction (kept-creates.ts), so a retry
 * after a COMMIT whose outcome is unknown (`errors.qc.write_outcome_unknown`) answers what it made. The booking
 * intake keeps its key with the booking instead (server/bookings/intake-keys.ts). An answer holding a credential
 * shown once (`shownOnce`) is kept without it, so the store never holds a secret: a replay answers it null.
 */
export async function withOperatorIdempotency(
  deps: Deps,
  request: Request,
  scope: string,
  body: unknown,
  run: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>,
  shownOnce?: ShownOnce,
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
  if (started.kind === 'replay') return replayOf(started.response, {});
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
        body: JSON.stringify(withheldSecrets(answer.body, shownOnce)),
        // A create answering what its key made before (kept-creates.ts) replays: its time is the original's.
        at: original ?? now.toISOString(),
      };
      await deps.idempotency.finish(claimKey, started.lease, kept);
    }
  }
}

/**
 * The answer as the store keeps it and replays it: each credential `shownOnce` names is null, and the envelope
 * says so beside `data`, for programs (`secret_withheld`: the paths) and for people (`detail`: how to get a new
 * one). An answer without those fields (a refusal) is kept as it is.
 */
export function withheldSecrets(body: unknown, shownOnce: ShownOnce | undefined): unknown {
  if (!shownOnce || !isRecord(body) || !isRecord(body.data)) return body;
  const data = structuredClone(body.data);
  const withheld = shownOnce.fields.filter((path) => nulled(data, path.split('.')));
  if (!withheld.length) return body;
  const one = withheld.length === 1;
  const detail =
    `${withheld.join(', ')} ${one ? 'was' : 'were'} shown only in the first answer to this Idempotency-Key and ` +
    `${one ? 'is' : 'are'} not kept, so this replay answers ${one ? 'it' : 'them'} null. ` +
    `To get a new one, ${shownOnce.renewal}.`;
  return { ...body, data, secret_withheld: withheld.map((path) => `data.${path}`), detail };
}

/** Sets the value at `path` to null; false when there is none to withhold. */
function nulled(record: Record<string, unknown>, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || !(head in record)) return false;
  if (rest.length) {
    const inner = record[head];
    return isRecord(inner) && nulled(inner, rest);
  }
  if (record[head] === null) return false;
  record[head] = null;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
