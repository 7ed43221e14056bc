import { ElysiaCustomStatusResponse, StatusMap } from 'elysia';
import type { Principal } from '../auth/principal.ts';
import { sha256Hex } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { validationError } from '../http/api-error.ts';
import { requestState } from '../http/request-state.ts';
import { idempotencyReplays } from '../metrics.ts';
import type { RouteSpec } from '../routes/route.ts';
import type { StoredResponse } from './store.ts';

/**
 * `Idempotency-Key` on the modern API's writes (spec 8.3), wired into the request pipeline
 * (server/core/http/qc-plugin.ts): the raw body is kept as the pipeline reads it, the key is claimed after the rate
 * limit and before validation and the handler, and the final response (success or error) is stored on its
 * way out.
 */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 128;

/** Not replayed (spec 8.3.3): the booking was not created, so a retry must try again. */
const NOT_KEPT = 'errors.qc.booking_create_failed';

/**
 * Which answers are replayed: every success and every 4xx except booking_create_failed. A 5xx is our
 * failure, not an answer to the request: the key is given back so a retry with it runs again (spec 7.3
 * tells partners to retry errors.qc.enrolment_failed_orphan_property with the same key).
 */
function isKept(status: number, body: string): boolean {
  if (status >= 500) return false;
  return status < 400 || errorKey(body) !== NOT_KEPT;
}

// Headers that describe the request being answered, not the operation: a replay carries its own.
const PER_REQUEST = new Set([
  'idempotency-replayed',
  'idempotency-original-timestamp',
  'x-qc-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-bucket',
  'retry-after',
  'content-length',
  'date',
]);

interface Keyed {
  rawBody?: Uint8Array;
  scope?: string;
  fingerprint?: string;
  lease?: string;
}
const keyed = new WeakMap<Request, Keyed>();

/** Thrown from the pipeline to answer with a stored response; the route's error hook returns it as is. */
export class IdempotentReplay extends Error {
  constructor(readonly response: Response) {
    super('idempotent replay');
  }
}

/** The bytes the pipeline read (server/core/http/read-body.ts): the comparison is on the exact bytes sent. */
export function keepRawBody(request: Request, raw: Uint8Array): void {
  if (!WRITES.has(request.method) || !request.headers.has(HEADER)) return;
  keyed.set(request, { rawBody: raw });
}

/**
 * Whether the pipeline read this keyed write's body whole (keepRawBody). A write refused before that (its size,
 * 413) has no fingerprint to claim its key with: it is answered on its own and leaves the key as it was, as a
 * 429 does. Its fingerprint was the empty body's: an empty body then replayed the 413, and the partner's real
 * request with that key was a 409.
 */
export function bodyWasKept(request: Request): boolean {
  return keyed.get(request)?.rawBody !== undefined;
}

/**
 * Claims the key (client, method, path, key) for this body. Answers nothing when the request runs (or
 * has no key); throws IdempotentReplay with the stored response, 409 on another body or a request still
 * running after the wait, 422 on a key that is empty or longer than 128 characters.
 */
export async function startIdempotentRequest(
  deps: Deps,
  spec: RouteSpec,
  request: Request,
  principal: Principal,
): Promise<void> {
  if (!WRITES.has(request.method)) return;
  const key = request.headers.get(HEADER);
  if (key === null) return;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw validationError({
      idempotency_key: [`customer.${spec.resource}.messages.${key.length ? 'max_length' : 'min_length'}`],
    });
  }
  const entry = keyed.get(request);
  const fingerprint = sha256Hex(entry?.rawBody ?? new Uint8Array(0));
  const scope = scopeOf(principal, request, key);
  const started = await deps.idempotency.start(scope, fingerprint, () => deps.clock.now());
  if (started.kind === 'replay') throw new IdempotentReplay(replayOf(started.response, requestState(request).headers));
  // Kept whether the store took the claim or not (unreachable: `unguarded`), for a route that also keeps the key
  // with what it creates (requestKey).
  keyed.set(request, { scope, fingerprint, lease: started.kind === 'started' ? started.lease : undefined });
}

/**
 * Before the pipeline refuses a keyed write for the record its path names (404), the answer its key and body
 * already have, replayed (throws IdempotentReplay): a DELETE that went through leaves no record to find, and its
 * keyed retry replays the first answer (spec 8.3.3) rather than a 404. Claims nothing: without such an answer the
 * refusal stands and leaves the key as it was. `rawBody` reads the body, asked only when the key holds something
 * (a refusal comes before the body is read); undefined when the body cannot be read whole, which matches nothing.
 */
export async function replayKeptAnswer(
  deps: Deps,
  request: Request,
  principal: Principal,
  rawBody: () => Promise<Uint8Array | undefined>,
): Promise<void> {
  if (!WRITES.has(request.method)) return;
  const key = request.headers.get(HEADER);
  // A key of the wrong length has nothing kept: the refusal comes first, as it did.
  if (!key || key.length > MAX_KEY_LENGTH) return;
  const fingerprint = async () => {
    const raw = keyed.get(request)?.rawBody ?? (request.body ? await rawBody() : new Uint8Array(0));
    return raw ? sha256Hex(raw) : '';
  };
  const kept = await deps.idempotency.kept(scopeOf(principal, request, key), fingerprint, () => deps.clock.now());
  if (kept) throw new IdempotentReplay(replayOf(kept, requestState(request).headers));
}

/** Where the store keeps a key: per client, method, path (without query) and key (spec 8.3.2). */
function scopeOf(principal: Principal, request: Request, key: string): string {
  const path = new URL(request.url).pathname;
  return sha256Hex(`${principal.clientPk}\n${request.method}\n${path}\n${key}`);
}

export interface RequestKey {
  scope: string;
  fingerprint: string;
}

/**
 * The request's Idempotency-Key as the store scopes it (client, method, path, key) and the fingerprint of its
 * body, once claimed: for a create that keeps the key in its own transaction as well (kept-creates.ts, server/
 * bookings/intake-keys.ts), because the store gives the key back on a 5xx, including the one whose COMMIT did
 * happen.
 */
export function requestKey(request: Request): RequestKey | undefined {
  const entry = keyed.get(request);
  return entry?.scope && entry.fingerprint ? { scope: entry.scope, fingerprint: entry.fingerprint } : undefined;
}

/** The operator API's claim (server/core/http/operator-idempotency.ts): its creates keep the key as well. */
export function keyOperatorRequest(request: Request, key: RequestKey): void {
  keyed.set(request, key);
}

/**
 * A stored answer sent again, with the headers of the request it answers (`current`), on the modern API and the
 * operator API alike: one place, so qc_idempotency_replays_total counts the replays of both.
 */
export function replayOf(stored: StoredResponse, current: Record<string, string>): Response {
  idempotencyReplays.inc();
  return new Response(stored.body, {
    status: stored.status,
    headers: {
      ...stored.headers,
      ...current,
      'idempotency-replayed': 'true',
      'idempotency-original-timestamp': stored.at,
    },
  });
}

interface ResponseSet {
  status?: number | string;
  headers: Record<string, string | number>;
}

/**
 * On the way out (mapResponse, which sees success values and error responses alike): stores what the
 * client is about to receive and returns exactly that, so the original and its replays are the same bytes.
 * Answers undefined, synchronously, when the request holds no claim: Elysia takes a promise as the
 * response itself, even one that resolves to nothing.
 */
export function finishIdempotentRequest(
  deps: Deps,
  request: Request,
  value: unknown,
  set: ResponseSet,
): Promise<Response> | undefined {
  const entry = keyed.get(request);
  if (!entry?.scope || !entry.lease) return undefined;
  keyed.delete(request);
  return storeAndAnswer(deps, entry.scope, entry.lease, toResponse(value, set), set);
}

async function storeAndAnswer(
  deps: Deps,
  scope: string,
  lease: string,
  response: Response,
  set: ResponseSet,
): Promise<Response> {
  const body = await response.text();
  const headers = Object.fromEntries(response.headers);
  const now = deps.clock.now();
  const stored = isKept(response.status, body)
    ? {
        status: response.status,
        headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name))),
        body,
        // A create answering what its key made before (kept-creates.ts) is a replay: its time is the original's.
        at: headers['idempotency-original-timestamp'] ?? now.toISOString(),
      }
    : undefined;
  await deps.idempotency.finish(scope, lease, stored);
  // Elysia merges `set.headers` into what we return; make them agree with what was stored.
  Object.assign(set.headers, headers);
  return new Response(body, { status: response.status, headers });
}

/** After the response: a claim never finished (the response was not produced) is given back. */
export async function abandonIdempotentRequest(deps: Deps, request: Request): Promise<void> {
  const entry = keyed.get(request);
  if (!entry?.scope || !entry.lease) return;
  keyed.delete(request);
  await deps.idempotency.finish(entry.scope, entry.lease, undefined);
}

/** The response Elysia would build from a handler's value. */
function toResponse(value: unknown, set: ResponseSet): Response {
  const headers = new Headers();
  for (const [name, v] of Object.entries(set.headers)) headers.set(name, String(v));
  const status = typeof set.status === 'number' ? set.status : (StatusMap[set.status as keyof typeof StatusMap] ?? 200);
  if (value instanceof Response) {
    for (const [name, v] of value.headers) headers.set(name, v);
    return new Response(value.body, { status: value.status, headers });
  }
  if (value instanceof ElysiaCustomStatusResponse) return toResponse(value.response, { ...set, status: value.code });
  if (value === undefined || value === null) return new Response(null, { status, headers });
  if (typeof value === 'object') {
    headers.set('content-type', 'application/json;charset=utf-8');
    return new Response(JSON.stringify(value), { status, headers });
  }
  if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=utf-8');
  return new Response(String(value), { status, headers });
}

function errorKey(body: string): unknown {
  try {
    return (JSON.parse(body) as { message?: unknown }).message;
  } catch {
    return undefined;
  }
}
