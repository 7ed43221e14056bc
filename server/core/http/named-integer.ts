import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { t, ValidationError } from 'elysia';

/**
 * A whole number in the query string, within bounds: t.Integer's own shape (text of an integer, or an integer),
 * but the bounds are checked on the parameter by name. t.Integer checks them once the text has matched, in its
 * decoder, whose error names no parameter: `per_page=0` was answered `errors: {property: [...min]}`. A blank value
 * is no integer (t.Integer read it as 0).
 */
export function queryInteger(name: string, minimum: number, maximum: number, description: string) {
  return namedInteger('query', name, minimum, maximum, description);
}

/**
 * The same for a path parameter (the operator API's row ids): t.Numeric named no parameter either
 * (`/ops/bookings/0` was `errors: {property: [...min]}`) and let `1.5` through to SQL.
 */
export function pathInteger(name: string, minimum: number, maximum: number, description: string) {
  return namedInteger('params', name, minimum, maximum, description);
}

function namedInteger(on: 'query' | 'params', name: string, minimum: number, maximum: number, description: string) {
  const bounds = { minimum, maximum, description };
  const named = TypeCompiler.Compile(Type.Object({ [name]: Type.Integer(bounds) }));
  return t
    .Transform(t.Union([t.String({ format: 'integer', default: 0 }), Type.Integer(bounds)], bounds))
    .Decode((value) => {
      const n = typeof value === 'string' && value.trim() === '' ? value : Number(value);
      if (!named.Check({ [name]: n })) throw new ValidationError(on, named, { [name]: n });
      return n as number;
    })
    .Encode((n) => n);
}
