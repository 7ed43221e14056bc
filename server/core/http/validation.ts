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
}

/**
 * Builds the spec's 422 `errors` map from TypeBox errors: JSON pointer paths become dotted field paths
 * (`/values/0/date` -> `values.0.date`), a missing property is reported on the property itself.
 */
export function fieldErrorsFrom(errors: readonly TypeBoxError[], resource: string, on = 'body'): FieldErrors {
  // A Map, not an object literal: field paths come from the client and may be `toString` or `__proto__`.
  const out = new Map<string, string[]>();
  for (const e of errors) {
    const path = echoable(e.path.replace(/^\//, '').replaceAll('/', '.')) || on;
    const message = `customer.${resource}.messages.${ruleOf(e)}`;
    const list = out.get(path) ?? [];
    if (!list.includes(message)) list.push(message);
    out.set(path, list);
  }
  return Object.fromEntries(out);
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
  const options = e.type === ValueErrorType.Union ? e.schema?.anyOf : undefined;
  if (options?.every((o) => 'const' in o)) return 'in';
  // Elysia coerces numeric fields into a (string | number) union, so TypeBox only says "union": find the
  // numeric branch and name the rule the value actually broke.
  const numeric = options?.find((o) => o.type === 'integer' || o.type === 'number');
  if (numeric) return numericRule(numeric, e.value);
  return RULES[e.type as ValueErrorType] ?? 'invalid';
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
