import type { TSchema } from '@sinclair/typebox';
import type { RouteDefinition } from '../core/routes/route.ts';
import type { RequestOptions } from './harness.ts';

/**
 * A body of the wrong type for the first field the schema declares (none for a body without fields): a number
 * where it takes an object, else an object, which no string, number, list or nullable of them takes.
 */
function wrongTypedField(schema: TSchema | undefined): RequestOptions[] {
  const [field, declared] = Object.entries((schema?.properties ?? {}) as Record<string, TSchema>)[0] ?? [];
  return field ? [{ body: { [field]: declared?.type === 'object' ? 42 : { wrong: true } } }] : [];
}

/**
 * What a request may carry that fails validation, for the walks that pin a check made before it (404 before the
 * body): for a read, the query `invalidQueries` gives it, if any (a read without one has only its path to refuse);
 * for a write, bodies of every kind of wrong.
 */
export function invalidInputs(
  spec: RouteDefinition,
  invalidQueries: Record<string, Record<string, string>>,
): RequestOptions[] {
  if (spec.method === 'GET') {
    const query = invalidQueries[spec.name];
    return query ? [{ query }] : [];
  }
  return [{ body: [1] }, { raw: '{bad' }, ...wrongTypedField(spec.body)];
}
