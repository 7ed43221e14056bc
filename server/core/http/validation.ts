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

interface TypeBoxError {
  type: number;
  path: string;
  schema?: { error?: unknown; anyOf?: { const?: unknown }[] };
}

/**
 * Builds the spec's 422 `errors` map from TypeBox errors: JSON pointer paths become dotted field paths
 * (`/values/0/date` -> `values.0.date`), a missing property is reported on the property itself.
 */
export function fieldErrorsFrom(errors: readonly TypeBoxError[], resource: string, on = 'body'): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const path = e.path.replace(/^\//, '').replaceAll('/', '.') || on;
    const isEnum = e.type === ValueErrorType.Union && e.schema?.anyOf?.every((s) => 'const' in s);
    const rule = isEnum ? 'in' : (RULES[e.type as ValueErrorType] ?? 'invalid');
    const message = `customer.${resource}.messages.${rule}`;
    const list = out[path] ?? [];
    if (!list.includes(message)) list.push(message);
    out[path] = list;
  }
  return out;
}
