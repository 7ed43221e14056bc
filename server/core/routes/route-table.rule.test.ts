import { beforeAll, describe, expect, it } from 'bun:test';
import { routeCatalogue as routeList } from '../../route-table.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { SCOPES } from '../auth/scopes.ts';

/**
 * The auth walk (runCommonRouteTests): every route in the table is registered, rejects a missing token
 * with 401, and rejects a token without its scope with 403. A route that forgot its `qc` hook fails here.
 */
let tokenWithout: (scope: string) => Promise<string>;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  const cache = new Map<string, string>();
  tokenWithout = async (scope) => {
    const cached = cache.get(scope);
    if (cached) return cached;
    const { token } = await t.client({
      customer_id: demo.customer_id,
      scopes: SCOPES.filter((s) => s !== scope && !(scope === 'inventory.read' && s === 'properties.manage')),
      property_ids: demo.properties.map((p) => p.external_property_id),
    });
    cache.set(scope, token);
    return token;
  };
});

function concretePath(path: string): string {
  const property = demo.properties[0]?.external_property_id ?? 'x';
  return `/v1/qc${path.replace(':property', property).replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000')}`;
}

describe('route table', () => {
  it('registers every route of the table in the app', () => {
    const registered = new Set(t.app.routes.map((r) => `${r.method} ${r.path}`));
    const missing = routeList.filter((spec) => !registered.has(`${spec.method} /v1/qc${spec.path}`));
    expect(missing.map((m) => m.name)).toEqual([]);
  });

  it('serves no /v1/qc route that is missing from the table', () => {
    const tabled = new Set(routeList.map((spec) => `${spec.method} /v1/qc${spec.path}`));
    // The OpenAPI document and docs UI are the only modern-prefix routes outside the table: they are not operations.
    const served = t.app.routes
      .filter((r) => r.path.startsWith('/v1/qc/') && !/^\/v1\/qc\/(openapi|docs)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect(served.filter((route) => !tabled.has(route))).toEqual([]);
  });

  it('has unique route names per method and qc.<resource>.<action> form', () => {
    const keys = routeList.map((r) => `${r.method} ${r.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of routeList) expect(r.name).toMatch(/^qc\.[a-z_]+\.[a-z_]+$/);
  });

  for (const spec of routeList.filter((r) => r.auth !== 'none')) {
    it(`${spec.method} ${spec.path} (${spec.name}) rejects a missing token with 401`, async () => {
      const res = await t.request(spec.method, concretePath(spec.path), {
        body: spec.method === 'GET' ? undefined : {},
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
      expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
    });
    if (spec.scope) {
      it(`${spec.method} ${spec.path} (${spec.name}) rejects a token without ${spec.scope} with 403`, async () => {
        const res = await t.request(spec.method, concretePath(spec.path), {
          token: await tokenWithout(spec.scope as string),
          body: spec.method === 'GET' ? undefined : {},
        });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('errors.qc.insufficient_scope');
      });
    }
  }
});
