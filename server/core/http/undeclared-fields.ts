import type { TSchema } from '@sinclair/typebox';
import { requestState } from './request-state.ts';

/**
 * Body fields a route does not declare (issue 28 item 12). Validation keeps what the schema declares and drops
 * the rest, so a misspelled `min_stya` on a push vanished with `warnings: []`. Refusing them would break v1
 * callers that send extra fields (spec 9.1: within a major, changes are additive), so they are accepted and
 * named in the answer instead (see `withUndeclaredWarnings`).
 */
export interface UndeclaredField {
  /** Dotted path in the body, array indexes included: `values.0.min_stya`. */
  field: string;
  key: 'errors.qc.unknown_field';
}

const MAX_REPORTED = 50;

/**
 * A map schema's keys that are declared, as a pattern, when the map takes any key but only these mean
 * something (`name_tr`: locale tags). Other keys pass validation and are named like undeclared fields. (Elysia's
 * validator refuses a key pattern beside `additionalProperties`, so the map itself takes any key.)
 */
export const DECLARED_KEYS = 'x-qc-declared-keys';

/**
 * Paths of `value` the schema does not declare: keys outside an object's `properties` (unless it allows any
 * other key), and keys of a map that match none of its key patterns (a `name_tr` key that is not a locale tag).
 * Unions and intersections declare what any of their object members declares.
 */
export function undeclaredFields(schema: TSchema | undefined, value: unknown): string[] {
  const found: string[] = [];
  const visit = (schemas: TSchema[], v: unknown, path: string) => {
    if (found.length >= MAX_REPORTED || v === null || typeof v !== 'object') return;
    const members = schemas.flatMap(flatten);
    if (Array.isArray(v)) {
      const items = members.flatMap((s) => (s.type === 'array' && s.items ? [s.items as TSchema] : []));
      if (items.length) for (const [i, item] of v.entries()) visit(items, item, join(path, String(i)));
      return;
    }
    const objects = members.filter((s) => s.type === 'object');
    if (!objects.length) return;
    for (const [key, item] of Object.entries(v)) {
      const declared = objects.flatMap((s) => declaredBy(s, key));
      if (declared.length === 0) {
        if (!objects.some(allowsAnyKey)) found.push(join(path, key));
        continue;
      }
      const named = objects.map((s) => s[DECLARED_KEYS]).filter((p): p is string => typeof p === 'string');
      if (named.length && !named.some((pattern) => new RegExp(pattern).test(key))) found.push(join(path, key));
      visit(declared, item, join(path, key));
    }
  };
  if (schema) visit([schema], value, '');
  return found;
}

function flatten(schema: TSchema): TSchema[] {
  const members = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as TSchema[] | undefined;
  return members ? members.flatMap(flatten) : [schema];
}

/** The schemas an object schema gives `key`: its property, or the value schema of a key pattern it matches. */
function declaredBy(schema: TSchema, key: string): TSchema[] {
  const property = (schema.properties as Record<string, TSchema> | undefined)?.[key];
  if (property && Object.hasOwn(schema.properties, key)) return [property];
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, TSchema>);
  return patterns.filter(([pattern]) => new RegExp(pattern).test(key)).map(([, s]) => s);
}

/** An object without key patterns that takes any other key (`additionalProperties` true or a schema). */
function allowsAnyKey(schema: TSchema): boolean {
  if (schema.patternProperties) return false;
  return schema.additionalProperties === true || typeof schema.additionalProperties === 'object';
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Notes the undeclared fields of a write's body for its answer (the pipeline calls this before validation). */
export function noteUndeclaredFields(schema: TSchema | undefined, request: Request, body: unknown): void {
  if (!schema || body === undefined || request.method === 'GET') return;
  const fields = undeclaredFields(schema, body);
  if (fields.length) requestState(request).undeclared = fields;
}

/**
 * The success body with the request's undeclared fields named, each `{field, key: 'errors.qc.unknown_field'}`:
 * in the answer's own `data.warnings` where it has one (the inventory pushes, with `row` for a field of a row),
 * else in `warnings` beside `data`. Non-envelope answers (the token endpoint) are left as they are.
 */
export function withUndeclaredWarnings(request: Request, body: unknown): unknown {
  const fields = requestState(request).undeclared;
  if (!fields?.length || !isEnvelope(body)) return body;
  const warnings: (UndeclaredField & { row?: number })[] = fields.map((field) => ({
    ...rowOf(field),
    key: 'errors.qc.unknown_field',
    field,
  }));
  const data = body.data as { warnings?: unknown } | undefined;
  if (data && Array.isArray(data.warnings))
    return { ...body, data: { ...data, warnings: [...data.warnings, ...warnings] } };
  return { ...body, warnings: warnings.map(({ field, key }) => ({ field, key })) };
}

/** A push row's field (`values.3.min_stya`) names its row, as every push warning does. */
function rowOf(field: string): { row?: number } {
  const match = /^values\.(\d+)\./.exec(field);
  return match ? { row: Number(match[1]) } : {};
}

function isEnvelope(body: unknown): body is { status: 'ok'; data: unknown } {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'ok';
}
