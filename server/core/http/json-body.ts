import { TransformKind, type TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { validationError } from './api-error.ts';
import { isJsonMime, mediaType } from './read-body.ts';
import { fieldErrorsFrom } from './validation.ts';

/**
 * A JSON body is checked against its route's schema as sent, before Elysia's own validation, which answers
 * a body it has already reshaped: it copies the body into `{}` (its default-filling step: strings and arrays
 * spread into `{"0": ...}`, `"hello"` became `{}` and a PUT erased a catalogue), it rebuilds the body from the
 * schema before checking it (`"name_tr": "str"` stored as `{"0": "s", ...}`, `"rooms": "x"` reported on
 * `rooms.0.code`). Here a value of the wrong JSON type is refused on its own field with its own rule (`object`,
 * `array`, `integer`), and what passes is valid for Elysia as is. A number written as text (`"qty": "5"`) still
 * passes, to be read as the number: v1 always took it, and a PMS that sends it must not stop working (spec 9.1).
 *
 * Form bodies (the token endpoint, the gallery upload) are strings by nature: Elysia's conversion applies.
 */
export function refuseInvalidJsonBody(schema: TSchema | undefined, request: Request, body: unknown, resource: string) {
  if (!schema || body === undefined) return;
  if (!isJsonMime(mediaType(request.headers.get('content-type')))) return;
  const check = strictCheckOf(schema);
  if (check.Check(body)) return;
  throw validationError(fieldErrorsFrom([...check.Errors(body)], resource));
}

const checks = new WeakMap<TSchema, TypeCheck<TSchema>>();

function strictCheckOf(schema: TSchema): TypeCheck<TSchema> {
  let check = checks.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(asSent(schema));
    checks.set(schema, check);
  }
  return check;
}

/** Elysia's string branch of a coercing union that JSON never took: a boolean written as text. */
const COERCED_FORMATS = new Set(['boolean']);

/**
 * The schema a JSON value must meet as sent: Elysia's coercing unions reduced to their JSON type, and plain
 * objects open to other keys (an undeclared field is named in `warnings`, never refused: ./undeclared-fields.ts).
 * A map keeps its own rule on keys (`additionalProperties: false` beside key patterns refuses other keys).
 * The OpenAPI document publishes request bodies in this form (./openapi-operation.ts).
 */
export function asSent(schema: TSchema): TSchema {
  const members = schema.anyOf as TSchema[] | undefined;
  if (members && TransformKind in schema) {
    const typed = members.filter((m) => !(m.type === 'string' && COERCED_FORMATS.has(m.format)));
    if (typed.length === 1 && typed.length < members.length) return asSent(typed[0] as TSchema);
  }
  const out: TSchema = { ...schema };
  if (out.type === 'object' && out.additionalProperties === false && !out.patternProperties)
    delete out.additionalProperties;
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const)
    if (Array.isArray(schema[key])) out[key] = (schema[key] as TSchema[]).map(asSent);
  for (const key of ['properties', 'patternProperties'] as const)
    if (schema[key])
      out[key] = Object.fromEntries(
        Object.entries(schema[key] as Record<string, TSchema>).map(([name, s]) => [name, asSent(s)]),
      );
  if (Array.isArray(schema.items)) out.items = (schema.items as TSchema[]).map(asSent);
  else if (schema.items) out.items = asSent(schema.items as TSchema);
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = asSent(schema.additionalProperties);
  return out;
}
