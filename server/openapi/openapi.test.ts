import { beforeAll, describe, expect, it } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import YAML from 'yaml';
import { routeCatalogue as routeList } from '../route-table.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

describe('OpenAPI', () => {
  it('serves /v1/qc/openapi.yaml as a valid OpenAPI 3 document', async () => {
    const res = await t.request('GET', '/v1/qc/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('yaml');
    const doc = YAML.parse(res.text);
    expect(doc.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 2000));
    expect(result.valid).toBe(true);
  });

  it('is generated from the registered routes: every route of the table is documented', async () => {
    const doc = YAML.parse((await t.request('GET', '/v1/qc/openapi.yaml')).text);
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    const missing = routeList
      .map((r) => `${r.method} /v1/qc${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    expect([...documented].some((k) => k.includes('/ops'))).toBe(false);
  });

  it('serves the docs page with the UI bundle from our own origin, pointing at the document URL', async () => {
    const res = await t.request('GET', '/v1/qc/docs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-url="/v1/qc/openapi.json"');
    expect(res.text).toContain('<script src="/v1/qc/docs/api-reference.js"></script>');
    expect(res.text).not.toMatch(/https?:\/\//);
    const bundle = await t.app.handle(new Request('http://localhost/v1/qc/docs/api-reference.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
  });
});
