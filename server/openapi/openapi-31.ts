/**
 * The generator (@elysiajs/openapi over TypeBox) leaves a few OpenAPI 3.0 and TypeBox artefacts in a 3.1
 * document, which Redocly (and strict tools) reject. This walk rewrites each into its 3.1 / JSON Schema
 * 2020-12 form; it changes no meaning:
 * - `nullable: true` beside a type list or an anyOf that already admits null: dropped;
 * - tuples (`items: [..]` with `additionalItems`): `prefixItems` and `items: false`;
 * - Elysia's file marker `elysiaMeta` (and the `default` it puts beside it): dropped;
 * - an `enum` of numbers typed `string` (a union of numeric literals): typed by its values;
 * - in responses, Elysia's numeric types (a number, or a numeric string it coerces from a query or form) are
 *   the number alone: the service answers numbers, and a client typed `string | number` would be wrong.
 */
export function toOpenApi31(node: unknown, inResponse = false, parentKey = ''): unknown {
  if (Array.isArray(node)) return node.map((item) => toOpenApi31(item, inResponse));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Examples are data, not schemas: an example error naming a field `items` (PUT guest_guide) was rewritten
    // into a tuple (`prefixItems`), which Redocly then found not to match its schema. A schema property of that
    // name (under `properties`) is still a schema.
    out[key] =
      parentKey !== 'properties' && (key === 'example' || key === 'examples')
        ? value
        : toOpenApi31(value, inResponse || key === 'responses', key);
  }
  if (inResponse && Array.isArray(out.anyOf)) {
    const numeric = coercedNumber(out.anyOf);
    if (numeric) {
      delete out.anyOf;
      Object.assign(out, numeric);
    }
  }
  if ('nullable' in out) delete out.nullable;
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    out.items = false;
    delete out.additionalItems;
  }
  if ('elysiaMeta' in out) {
    delete out.elysiaMeta;
    delete out.default;
  }
  if (Array.isArray(out.enum) && out.enum.length && out.enum.every((v) => typeof v === 'number'))
    out.type = out.enum.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
  return out;
}

/** The number branch of Elysia's `t.Integer`/`t.Numeric` union (a numeric string or a number), if it is one. */
function coercedNumber(options: unknown[]): Record<string, unknown> | undefined {
  if (options.length !== 2) return undefined;
  const [first, second] = options as Record<string, unknown>[];
  const isCoercedString = (o?: Record<string, unknown>) =>
    o?.type === 'string' && (o.format === 'integer' || o.format === 'numeric');
  const isNumber = (o?: Record<string, unknown>) => o?.type === 'integer' || o?.type === 'number';
  if (isCoercedString(first) && isNumber(second)) return second;
  if (isCoercedString(second) && isNumber(first)) return first;
  return undefined;
}
