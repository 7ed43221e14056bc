import type { Bucket, RouteSpec } from '../routes/route-spec.ts';
import { ApiError, type FieldErrors, validationError } from './api-error.ts';

/**
 * The modern API reads request bodies itself (the pipeline's parse hook) so that nothing is read before the
 * caller is authenticated and nothing is parsed before it is bounded: the declared and the streamed size
 * against the route's limit (413), the JSON nesting depth by a scan that builds nothing (422), then the parse,
 * then the strings PostgreSQL cannot store (NUL, lone surrogates: 422 naming the field).
 */

/**
 * Per bucket: an inventory push carries up to 1000 rows with per-occupancy prices (megabytes); a catalogue
 * sync up to 2000 entries per list; everything else is a small JSON object. A route may set its own.
 */
const LIMIT_BY_BUCKET: Record<Bucket, number> = {
  'inventory-writes': 4 * 1024 * 1024,
  'config-writes': 1024 * 1024,
  'booking-actions': 64 * 1024,
  reads: 16 * 1024,
  token: 8 * 1024,
};

/**
 * The server's own bound on any request body (Bun.serve's maxRequestBodySize), for the surfaces that do not
 * read bodies through the modern pipeline (operator API, dashboard, legacy facade): above the largest route
 * limit (the gallery's 32 MiB), far below Bun's default of 128 MiB.
 */
export const MAX_REQUEST_BODY_BYTES = 40 * 1024 * 1024;

/**
 * The one nesting rule for JSON request bodies, on every JSON surface (modern API, operator API, dashboard):
 * deeper than any request schema of the API (the deepest nests about six levels). Deeper bodies are refused
 * by a scan before any parse: parsing, validating and cleaning a 20,000-deep body held the event loop for
 * seconds. The legacy facade applies PHP's own json_decode depth instead (legacy/php-input.ts).
 */
export const MAX_JSON_DEPTH = 32;

/** The media type of a Content-Type header, without its parameters, in lower case ('' for none). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}

/** 422 `too_deep` for a JSON text nested deeper than MAX_JSON_DEPTH. */
export function refuseTooDeep(text: string, resource: string): void {
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw validationError({ body: [`customer.${resource}.messages.too_deep`] });
}

/** A JSON request body's value: depth-checked first (422 too_deep), then parsed (422 malformed). */
export function parseJsonBody(text: string, resource: string): unknown {
  refuseTooDeep(text, resource);
  try {
    return JSON.parse(text);
  } catch {
    throw validationError({ body: [`customer.${resource}.messages.malformed`] });
  }
}

/**
 * The parsed JSON without its `__proto__` keys, at any depth: JSON.parse keeps one as an own key, and a copy with
 * Object.assign (Elysia's default-filling step) then makes it the copy's prototype, lending its fields to the body.
 * For the JSON surfaces outside /v1/qc, which parse before the route is known (the modern API names the key in
 * warnings and removes it there: ./undeclared-fields.ts). The operator API and the dashboard name their other
 * undeclared fields per route (./mount-operator-routes.ts); this key is gone by then, so it is not named there.
 */
export function withoutProtoKeys<T>(value: T): T {
  if (Array.isArray(value)) for (const item of value) withoutProtoKeys(item);
  else if (value !== null && typeof value === 'object') {
    if (Object.hasOwn(value, '__proto__')) Reflect.deleteProperty(value, '__proto__');
    for (const item of Object.values(value)) withoutProtoKeys(item);
  }
  return value;
}

export function bodyLimitOf(spec: RouteSpec): number {
  return spec.maxBodyBytes ?? LIMIT_BY_BUCKET[spec.bucket];
}

/** The body's bytes, bounded by `limit` (413): checked against Content-Length first, then while streaming. */
export async function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  return readCapped(request, limit);
}

/**
 * The body's value: JSON (depth-checked before parsing), a form as an object, other types as text.
 * Undefined when the request has no body at all; an empty JSON body is malformed, as Elysia answered it.
 */
export async function parseBody(request: Request, raw: Uint8Array, resource: string, asText = false): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (raw.byteLength === 0 && type === null) return undefined;
  const mime = mediaType(type);
  const text = new TextDecoder().decode(raw);
  const json = isJsonMime(mime);
  // A route that parses its body itself still gets it bounded: size above, depth here.
  if (asText) {
    if (json) refuseTooDeep(text, resource);
    return text;
  }
  let value: unknown;
  if (json) value = parseJsonBody(text, resource);
  else if (mime === 'application/x-www-form-urlencoded') {
    value = Object.fromEntries(new URLSearchParams(text));
  } else if (mime === 'multipart/form-data') {
    value = await multipart(raw, type as string, resource);
  } else value = text;
  return value;
}

/** Parts by name, as Elysia shapes them: one value, or an array when the name repeats (files included). */
async function multipart(raw: Uint8Array, type: string, resource: string): Promise<Record<string, unknown>> {
  let form: globalThis.FormData;
  try {
    form = (await new Response(raw, { headers: { 'content-type': type } }).formData()) as globalThis.FormData;
  } catch {
    throw validationError({ body: [`customer.${resource}.messages.malformed`] });
  }
  const out: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** 413 with the limit, so a client knows how to split. */
function tooLarge(limit: number): ApiError {
  return new ApiError('errors.qc.payload_too_large', { limit_bytes: limit });
}

/** Reads the stream and stops at `limit`: a body without (or lying about) Content-Length is bounded too. */
async function readCapped(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The deepest bracket nesting of a JSON text, brackets inside strings excluded; one pass, no allocation. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * PostgreSQL refuses NUL in text and jsonb, and a lone UTF-16 surrogate has no UTF-8 form: either reached the
 * database as a 500. They are refused here, each field named (`errors.<path>: [...invalid_characters]`).
 * Used on bodies, query strings and path parameters alike.
 */
export function refuseUnstorable(value: unknown, resource: string, root = 'body'): void {
  // Most reads have no params or query at all: nothing to walk, nothing to allocate (issue 27, per request).
  if (isEmptyObject(value)) return;
  // A Map, not an object literal: paths come from the client and may be `__proto__`.
  const errors = new Map<string, string[]>();
  const message = `customer.${resource}.messages.invalid_characters`;
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (!storable(v)) errors.set(path || root, [message]);
    } else if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, path ? `${path}.${i}` : String(i));
    } else if (v && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        if (!storable(key)) errors.set(at, [message]);
        else visit(item, at);
      }
    }
  };
  visit(value, '');
  if (errors.size) throw validationError(Object.fromEntries(errors) as FieldErrors);
}

/** Text PostgreSQL can store: no NUL, no lone surrogate. */
export function storable(s: string): boolean {
  return !s.includes('\u0000') && s.isWellFormed();
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const _ in value) return false;
  return true;
}
