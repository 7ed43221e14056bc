import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { uriOf } from '../core/routes/route.ts';
import { routeList, routes } from '../core/routes/route-table.ts';

/** Built from the route table once: the catalogue cannot drift from what is registered. */
export function permissionCatalogue() {
  const byName = new Map<string, { name: string; methods: string[]; uri: string; scope: string[] }>();
  for (const spec of routeList) {
    const entry = byName.get(spec.name) ?? {
      name: spec.name,
      methods: [],
      uri: uriOf(spec),
      scope: spec.scope ? [spec.scope] : [],
    };
    entry.methods.push(spec.method);
    byName.set(spec.name, entry);
  }
  const endpoints = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  const counts = new Map<string, number>();
  for (const e of endpoints) {
    const resource = e.name.split('.')[1] ?? '';
    counts.set(resource, (counts.get(resource) ?? 0) + 1);
  }
  const resources = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([resource, endpoint_count]) => ({ resource, wildcard: `qc.${resource}.*`, endpoint_count }));
  return { endpoints, resources };
}

export function registerPermissions(app: QcApp) {
  const catalogue = permissionCatalogue();
  app.get(routes.permissions.path, () => ok(catalogue), {
    qc: routes.permissions,
    detail: { summary: routes.permissions.summary, tags: ['auth'] },
  });
}
