import type { RouteDefinition } from '../routes/route.ts';
import type { RouteSpec } from '../routes/route-spec.ts';
import { ApiError } from './api-error.ts';

/** What a route reads when it declares nothing: JSON (README: "Send bodies as JSON"). */
const JSON_ONLY = ['application/json'];

/**
 * A body the route would misread is refused with 415 before validation, naming what the route reads. The trap
 * it closes: `curl -d '{...}'` sends application/x-www-form-urlencoded, and the JSON text became one form field
 * named after the whole document (a 422 "unknown field"). A route reads JSON unless it declares its media types
 * (the token endpoint: a form, or JSON; the gallery upload: multipart): a form sent to a JSON route was listed as
 * accepted in every 415, yet no push or create could be written as one.
 */
export function requireDeclaredContentType(spec: RouteSpec | RouteDefinition, request: Request, body: unknown): void {
  if (!('body' in spec) || !spec.body || !hasBody(request)) return;
  const sent = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const accepted = spec.contentTypes ?? JSON_ONLY;
  const json = sent === 'application/json' || sent.endsWith('+json');
  if (json && accepted.includes('application/json')) return;
  if (accepted.includes(sent) && !(sent === 'application/x-www-form-urlencoded' && isJsonAsForm(body))) return;
  throw new ApiError('errors.qc.unsupported_media_type', {
    detail: unsupportedDetail(accepted),
    accepted_content_types: [...accepted],
  });
}

/**
 * The 415 sentence names what this route reads, from the same list as `accepted_content_types`, and asks for
 * the first, the one the route lists first (the token endpoint's form, spec 4.1): the catalogue's one sentence
 * said "send JSON" beside a gallery upload that reads only multipart, then beside the form-encoded token endpoint.
 */
export function unsupportedDetail(accepted: readonly string[]): string {
  return `This endpoint reads ${accepted.join(', ')}: send the body with Content-Type: ${accepted[0]}.`;
}

/** A form whose one field is named by a JSON text and has no value: JSON sent with the form media type. */
function isJsonAsForm(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const entries = Object.entries(body);
  return entries.length === 1 && /^\s*[[{]/.test(entries[0]![0]) && !entries[0]![1];
}

function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  return request.body !== null;
}
