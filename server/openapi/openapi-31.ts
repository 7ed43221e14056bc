/**
 * The generator (@elysiajs/openapi over TypeBox) leaves a few OpenAPI 3.0 and TypeBox artefacts in a 3.1
 * document, which Redocly (and strict tools) reject. This walk rewrites each into its 3.1 / JSON Schema
 * 2020-12 form; it changes no meaning:
 * - `nullable: true` beside a type list or an anyOf that already admits null: dropped;
 * - tuples (`items: [..]` with `additionalItems`): `prefixItems` and `items: false`;
 * - Elysia's file marker `elysiaMeta` (and the `default` it puts beside it): dropped;
 * - an `enum` of numbers typed `string` (a union of numeric literals): typed by its values.
 */
export function toOpenApi31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi31);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = toOpenApi31(value);
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
