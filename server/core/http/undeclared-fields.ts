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
 * JSON.parse keeps a `"__proto__"` key as a plain field, but any later copy by assignment (Elysia's default-filling
 * `Object.assign`, its rebuilding of maps key by key) makes its value the copy's prototype: a create with
 * `{"__proto__": {"name": "polluted"}}` was stored named "polluted". It is never a field of ours, declared map
 * keys included: named like any undeclared field and removed from the body where it is found.
 */
const PROTO = '__proto__';

/**
 * Paths of `value` the schema does not declare: keys outside an object's `properties` (unless it allows any
 * other key), and keys of a map that match none of its key patterns (a `name_tr` key that is not a locale tag).
 * Every `__proto__` key of the objects walked is named and removed (above); the walk goes on past the last
 * field it names for that. Unions and intersections declare what any of their object members declares. Each
 * schema is compiled once and each map key's answer remembered: on a 1000-row price push the walk went from
 * 15-20x the body's JSON.parse to about 1x (loaded 2-core machine, same run).
 */
export function undeclaredFields(schema: TSchema | undefined, value: unknown): string[] {
  const found: string[] = [];
  // The path is a stack joined only for a field reported: most bodies report nothing.
  const path: string[] = [];
  const report = (key: string) => {
    if (found.length < MAX_REPORTED) found.push([...path, key].join('.'));
  };
  const visit = (shape: Shape, v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      const items = shape.items;
      if (!items) return;
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (item === null || typeof item !== 'object') continue;
        path.push(String(i));
        visit(items, item);
        path.pop();
      }
      return;
    }
    if (!shape.isObject) return;
    for (const key in v) {
      if (key === PROTO) {
        report(key);
        delete (v as Record<string, unknown>)[key];
        continue;
      }
      const declared = shape.child(key);
      if (!declared) {
        if (!shape.anyKey) report(key);
        continue;
      }
      if (shape.declaredKeys && !shape.declaredKeys.some((pattern) => pattern.test(key))) report(key);
      const item = (v as Record<string, unknown>)[key];
      if (item === null || typeof item !== 'object') continue;
      path.push(key);
      visit(declared, item);
      path.pop();
    }
  };
  if (schema) visit(shapeOf([schema]), value);
  return found;
}

/** What the walk needs of a (union of) schema(s), compiled once. */
interface Shape {
  items: Shape | undefined;
  isObject: boolean;
  anyKey: boolean;
  declaredKeys: RegExp[] | undefined;
  child(key: string): Shape | undefined;
}

const shapes = new WeakMap<TSchema, Shape>();

function shapeOf(schemas: TSchema[]): Shape {
  if (schemas.length === 1) {
    const cached = shapes.get(schemas[0] as TSchema);
    if (cached) return cached;
  }
  const members = schemas.flatMap(flatten);
  const arrays = members.flatMap((s) => (s.type === 'array' && s.items ? [s.items as TSchema] : []));
  const objects = members.filter(describesObjects);
  const properties = new Map<string, TSchema[]>();
  for (const o of objects)
    for (const [key, child] of Object.entries((o.properties ?? {}) as Record<string, TSchema>))
      properties.set(key, [...(properties.get(key) ?? []), child]);
  const patterns = objects.flatMap((o) =>
    Object.entries((o.patternProperties ?? {}) as Record<string, TSchema>).map(
      ([pattern, child]) => [new RegExp(pattern), child] as const,
    ),
  );
  const named = objects.map((s) => s[DECLARED_KEYS]).filter((p): p is string => typeof p === 'string');
  const children = new Map<string, Shape | undefined>();
  const shape: Shape = {
    items: undefined,
    isObject: objects.length > 0,
    anyKey: objects.some(allowsAnyKey),
    declaredKeys: named.length ? named.map((p) => new RegExp(p)) : undefined,
    child(key) {
      if (children.has(key)) return children.get(key);
      const compiled = compile(key);
      // Map keys (occupancy codes, locales) repeat row after row; a flood of distinct ones is not remembered.
      if (children.size < 1000) children.set(key, compiled);
      return compiled;
    },
  };
  function compile(key: string): Shape | undefined {
    const known = properties.get(key);
    if (known) return shapeOf(known);
    const matching: TSchema[] = [];
    for (const [pattern, child] of patterns) if (pattern.test(key)) matching.push(child);
    return matching.length ? shapeOf(matching) : undefined;
  }
  if (arrays.length) shape.items = shapeOf(arrays);
  if (schemas.length === 1) shapes.set(schemas[0] as TSchema, shape);
  return shape;
}

function flatten(schema: TSchema): TSchema[] {
  const members = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as TSchema[] | undefined;
  return members ? members.flatMap(flatten) : [schema];
}

/**
 * An object schema, or one without a `type` that names `properties`: JSON Schema applies them to a value that is an
 * object, so its other keys are undeclared there too (the per-plan rate write's rows take any value, each checked
 * by the service, and name their fields so: server/rates/model.ts).
 */
function describesObjects(schema: TSchema): boolean {
  return schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
}

/** An object without key patterns that takes any other key (`additionalProperties` true or a schema). */
function allowsAnyKey(schema: TSchema): boolean {
  if (schema.patternProperties) return false;
  return schema.additionalProperties === true || typeof schema.additionalProperties === 'object';
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
