import type { Method, RouteSpec } from '../core/routes/route.ts';

/**
 * The route-table fields every configuration operation shares (spec 4.7, 8.1): scope `properties.manage`,
 * GETs in the `reads` bucket and every write in `config-writes`, tagged with its resource. The name keeps
 * the `qc.<resource>.<action>` form that endpoint_scopes and GET /permissions read.
 */
export function configOperation(
  name: `qc.${string}.${string}`,
  method: Method,
  path: string,
  resource: string,
  summary: string,
): RouteSpec & { tags: string[] } {
  const tag = name.split('.')[1] as string;
  return {
    name,
    method,
    path,
    scope: 'properties.manage',
    bucket: method === 'GET' ? 'reads' : 'config-writes',
    resource,
    summary,
    tags: [tag],
  };
}
