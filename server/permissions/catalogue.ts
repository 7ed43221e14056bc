import { type Bucket, type RouteSpec, uriOf } from '../core/routes/route.ts';

// Code-point order, not localeCompare: the listing must not depend on the machine's collation.
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * GET /permissions `data`, built from the route table: it cannot drift from what is mounted. `bucket` is the
 * rate-limit bucket the operation spends, as its X-RateLimit-Bucket header names it.
 */
export function permissionCatalogue(routes: readonly RouteSpec[]) {
  const byName = new Map<string, { name: string; methods: string[]; uri: string; scope: string[]; bucket: Bucket }>();
  for (const spec of routes) {
    const entry = byName.get(spec.name) ?? {
      name: spec.name,
      methods: [],
      uri: uriOf(spec),
      scope: spec.scope ? [spec.scope] : [],
      bucket: spec.bucket,
    };
    entry.methods.push(spec.method);
    byName.set(spec.name, entry);
  }
  const endpoints = [...byName.values()].sort((a, b) => byCodePoint(a.name, b.name));
  const counts = new Map<string, number>();
  for (const e of endpoints) {
    const resource = e.name.split('.')[1] ?? '';
    counts.set(resource, (counts.get(resource) ?? 0) + 1);
  }
  const resources = [...counts.entries()]
    .sort(([a], [b]) => byCodePoint(a, b))
    .map(([resource, endpoint_count]) => ({ resource, wildcard: `qc.${resource}.*`, endpoint_count }));
  return { endpoints, resources };
}
