import { ValueErrorType } from '@sinclair/typebox/errors';
import type { FieldErrors } from './api-error.ts';

/** TypeBox error kinds mapped to the rule names used in `customer.<resource>.messages.<rule>`. */
const RULES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.String]: 'string',
  [ValueErrorType.StringMinLength]: 'min_length',
  [ValueErrorType.StringMaxLength]: 'max_length',
  [ValueErrorType.StringPattern]: 'format',
  [ValueErrorType.StringFormat]: 'format',
  [ValueErrorType.Integer]: 'integer',
  [ValueErrorType.Number]: 'number',
  [ValueErrorType.NumberMinimum]: 'min',
  [ValueErrorType.NumberMaximum]: 'max',
  [ValueErrorType.IntegerMinimum]: 'min',
  [ValueErrorType.IntegerMaximum]: 'max',
  [ValueErrorType.NumberExclusiveMinimum]: 'min',
  [ValueErrorType.Boolean]: 'boolean',
  [ValueErrorType.Array]: 'array',
  [ValueErrorType.ArrayMinItems]: 'min_items',
  [ValueErrorType.ArrayMaxItems]: 'max_items',
  [ValueErrorType.ArrayUniqueItems]: 'unique',
  [ValueErrorType.Object]: 'object',
  [ValueErrorType.ObjectAdditionalProperties]: 'unknown_field',
  [ValueErrorType.Union]: 'invalid',
  [ValueErrorType.Literal]: 'in',
  [ValueErrorType.Null]: 'null',
};

interface SchemaLike {
  type?: string;
  format?: string;
  const?: unknown;
  minimum?: number;
  maximum?: number;
  anyOf?: SchemaLike[];
  [keyword: string]: unknown;
}

interface TypeBoxError {
  type: number;
  path: string;
  value?: unknown;
  schema?: SchemaLike;
  /** A union's errors, one list per member (TypeBox's iterators). */
  errors?: Iterable<TypeBoxError>[];
}

/** Errors that say the value is of another JSON type than the schema's. */
const TYPE_ERRORS = new Set<number>([
  ValueErrorType.String,
  ValueErrorType.Number,
  ValueErrorType.Integer,
  ValueErrorType.Boolean,
  ValueErrorType.Array,
  ValueErrorType.Object,
  ValueErrorType.Null,
  ValueErrorType.Literal,
]);

/**
 * Builds the spec's 422 `errors` map from TypeBox errors: JSON pointer paths become dotted field paths
 * (`/values/0/date` -> `values.0.date`), a missing property is reported on the property itself.
 */
export function fieldErrorsFrom(errors: readonly TypeBoxError[], resource: string, on = 'body'): FieldErrors {
  // A Map, not an object literal: field paths come from the client and may be `toString` or `__proto__`.
  const out = new Map<string, string[]>();
  for (const { path: pointer, rule } of errors.flatMap(explained)) {
    const path = echoable(pointer.replace(/^\//, '').replaceAll('/', '.')) || on;
    const message = `customer.${resource}.messages.${rule}`;
    const list = out.get(path) ?? [];
    if (!list.includes(message)) list.push(message);
    out.set(path, list);
  }
  return Object.fromEntries(out);
}

/**
 * A union (`t.Nullable(t.String({maxLength}))`, a choice of objects) fails as a whole: TypeBox says only "union",
 * which read `invalid` beside a 300-character name or a number where a string goes. The member the value has the
 * type of explains it (its own errors, at their own paths: `max_length`, `derivation.percent`); when the value has
 * the type of no member, the rule names the type the field takes (`string`), when there is one.
 */
function explained(e: TypeBoxError): { path: string; rule: string }[] {
  if (e.type !== ValueErrorType.Union || !e.errors || e.value === undefined || shortcutOf(e))
    return [{ path: e.path, rule: ruleOf(e) }];
  const members = e.errors.map((errors) => [...errors]);
  const typed = members.filter((errors) => !isTypeMismatch(errors, e.path));
  const closest = typed.sort((a, b) => a.length - b.length)[0];
  if (closest) return closest.flatMap(explained);
  const taken = (e.schema?.anyOf ?? []).filter((o) => o.type !== 'null');
  if (taken.length && taken.every((o) => 'const' in o)) return [{ path: e.path, rule: 'in' }];
  const types = new Set(taken.map((o) => o.type));
  const [only] = types;
  return [{ path: e.path, rule: types.size === 1 && only && TYPE_RULES.has(only) ? only : 'invalid' }];
}

/** JSON types whose name is also the rule a value of another type breaks. */
const TYPE_RULES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);

function isTypeMismatch(errors: TypeBoxError[], path: string): boolean {
  const [first] = errors;
  return first !== undefined && errors.length === 1 && first.path === path && TYPE_ERRORS.has(first.type);
}

/**
 * A field path is echoed back only when it reads like one: a form-encoded body whose whole text became one field
 * name (JSON sent as a form) was answered back to the client inside the errors map, secrets included.
 */
const MAX_ECHOED_PATH = 100;
function echoable(path: string): string {
  return path.length <= MAX_ECHOED_PATH && /^[\w.-]*$/.test(path) ? path : '';
}

function ruleOf(e: TypeBoxError): string {
  if (e.value === undefined) return 'required';
  return shortcutOf(e) ?? RULES[e.type as ValueErrorType] ?? 'invalid';
}

/** The unions whose rule is read from the union itself: a choice of literals, Elysia's coercing numbers. */
function shortcutOf(e: TypeBoxError): string | undefined {
  const options = e.type === ValueErrorType.Union ? e.schema?.anyOf : undefined;
  if (!options) return undefined;
  if (options.every((o) => 'const' in o)) return 'in';
  // Elysia coerces numeric fields (query strings, path segments) into a (string | number) union: find the
  // numeric branch and name the rule the value actually broke.
  const numeric = options.find((o) => o.type === 'integer' || o.type === 'number');
  const text = options.find((o) => o.type === 'string' && o.format !== undefined);
  if (numeric && text && options.length === 2) return numericRule(numeric, e.value);
  return undefined;
}

function numericRule(schema: SchemaLike, value: unknown): string {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (Number.isNaN(n)) return schema.type as string;
  if (schema.type === 'integer' && !Number.isInteger(n)) return 'integer';
  if (schema.minimum !== undefined && n < schema.minimum) return 'min';
  if (schema.maximum !== undefined && n > schema.maximum) return 'max';
  return 'invalid';
}
