import type { TSchema } from '@sinclair/typebox';
import type { RouteDefinition } from '../routes/route.ts';
import type { RouteSpec } from '../routes/route-spec.ts';
import { ApiError } from './api-error.ts';
import { isJsonMime, mediaType } from './read-body.ts';

/** What a route reads when it declares nothing: JSON (README: "Send bodies as JSON"). */
const JSON_ONLY = ['application/json'];
/** ... and a route whose every body field is text, as v1 always did: a form can write it. */
const JSON_AND_FORMS = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * A body the route would misread is refused with 415 before validation, naming what the route reads. The trap
 * it closes: `curl -d '{...}'` sends application/x-www-form-urlencoded, and the JSON text became one form field
 * named after the whole document (a 422 "unknown field"). A route reads what it declares (the token endpoint: a
 * form, or JSON; the gallery upload: multipart), else JSON, and forms too where every body field is text: those
 * read forms in v1 and still do (a PATCH of a property's codes), while a form was listed as accepted in every 415,
 * yet no push, nested body or number could be written as one.
 */
export function requireDeclaredContentType(spec: RouteSpec | RouteDefinition, request: Request, body: unknown): void {
  if (!('body' in spec) || !spec.body || !hasBody(request)) return;
  const sent = mediaType(request.headers.get('content-type'));
  const accepted = spec.contentTypes ?? (textFieldsOnly(spec.body) ? JSON_AND_FORMS : JSON_ONLY);
  if (isJsonMime(sent) && accepted.includes('application/json')) return;
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

const textOnly = new WeakMap<object, boolean>();

/** An object body whose every field is a string (or a union of strings and null): what a form can carry. */
function textFieldsOnly(body: TSchema): boolean {
  let known = textOnly.get(body);
  if (known === undefined) {
    const fields = Object.values((body.properties ?? {}) as Record<string, TSchema>);
    known = body.type === 'object' && fields.length > 0 && fields.every(isText);
    textOnly.set(body, known);
  }
  return known;
}

function isText(schema: TSchema): boolean {
  const members = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined;
  if (members) return members.every((member) => member.type === 'null' || isText(member));
  return schema.type === 'string';
}
