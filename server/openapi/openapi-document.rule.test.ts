import { describe, expect, it } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Value } from '@sinclair/typebox/value';
import YAML from 'yaml';
import { routeCatalogue as routeList, routeTable } from '../route-table.ts';
import { testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();

const operation = (doc: any, method: string, path: string) => doc.paths[`/v1/qc${path}`][method];

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
  }, 30_000);

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

  it('answers the same document on every fetch, and the YAML is the same object as the JSON', async () => {
    const first = await t.request('GET', '/v1/qc/openapi.json');
    await t.request('GET', '/v1/qc/properties');
    const second = await t.request('GET', '/v1/qc/openapi.json');
    expect(second.text).toBe(first.text);
    expect(YAML.parse((await t.request('GET', '/v1/qc/openapi.yaml')).text)).toEqual(first.body);
  });

  it('names the server it was fetched from and both ways to authenticate, the token URL included', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    expect(doc.servers[0].url).toBe('http://localhost');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe('/v1/qc/oauth/token');
    expect(Object.keys(doc.components.securitySchemes.oauth2.flows.clientCredentials.scopes)).toContain(
      'inventory.write',
    );
    const push = operation(doc, 'post', '/properties/{property}/inventory/rates');
    expect(push.security).toEqual([{ bearer: [] }, { oauth2: ['inventory.write'] }]);
    expect(operation(doc, 'post', '/oauth/token').security).toEqual([]);
  });

  it('documents the error answers of an operation: its own keys and the pipeline ones, grouped by status', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const push = operation(doc, 'post', '/properties/{property}/inventory/rates');
    const keysOf = (status: string) =>
      push.responses[status].content['application/json'].schema.allOf[1].properties.message.enum;
    expect(keysOf('401')).toEqual(['errors.unauthorized']);
    expect(keysOf('403')).toEqual(['errors.qc.insufficient_scope', 'errors.qc.endpoint_not_allowed']);
    expect(keysOf('404')).toEqual(['errors.not_found']);
    expect(keysOf('409')).toEqual(['errors.qc.idempotency_conflict', 'errors.qc.idempotency_in_flight']);
    expect(keysOf('415')).toEqual(['errors.qc.unsupported_media_type']);
    expect(keysOf('422')).toContain('errors.validation_error');
    expect(keysOf('422')).toContain('errors.qc.unknown_room_or_rate');
    expect(keysOf('429')).toEqual(['errors.qc.rate_limit_exceeded']);
    const unprocessable = push.responses['422'].content['application/json'];
    expect(unprocessable.schema.allOf[1].properties.errors).toEqual({ $ref: '#/components/schemas/ValidationErrors' });
    expect(unprocessable.examples['errors.validation_error'].value.detail).toStartWith('values: ');
    expect(push.responses['422'].description).toContain('`errors.qc.unknown_room_or_rate`: ');

    // An example is data: one naming a field `items` stays as written, not rewritten into a JSON Schema tuple.
    const guide = operation(doc, 'put', '/properties/{property}/guest_guide');
    expect(guide.responses['422'].content['application/json'].examples['errors.validation_error'].value.errors).toEqual(
      {
        items: ['customer.guest_guide.messages.required'],
      },
    );

    const token = operation(doc, 'post', '/oauth/token');
    expect(Object.keys(token.responses)).not.toContain('403');
    expect(token.responses['401'].content['application/json'].schema.allOf[1].properties.message.enum).toEqual([
      'errors.qc.invalid_client',
    ]);
  });

  it('documents the response headers of every answer and Idempotency-Key on authenticated writes', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const push = operation(doc, 'post', '/properties/{property}/inventory/rates');
    expect(push.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    // The body as the pipeline reads it: JSON, with its schema (the parser being ours, the generator needs telling).
    expect(Object.keys(push.requestBody.content)).toEqual(['application/json']);
    expect(push.requestBody.content['application/json'].schema.properties.values.type).toBe('array');
    expect(Object.keys(push.responses['202'].headers)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Bucket',
      'X-Qc-Request-Id',
      'Idempotency-Replayed',
      'Idempotency-Original-Timestamp',
    ]);
    expect(Object.keys(push.responses['429'].headers)).toContain('Retry-After');
    expect(Object.keys(push.responses['401'].headers)).toContain('WWW-Authenticate');
    const read = operation(doc, 'get', '/properties');
    expect(read.parameters ?? []).not.toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(methods))
        for (const [status, response] of Object.entries(op.responses ?? {}) as [string, any][])
          if (Number(status) >= 400)
            expect([method, path, status, response.headers['X-Qc-Support-Ticket']]).toEqual([
              method,
              path,
              status,
              { $ref: '#/components/headers/X-Qc-Support-Ticket' },
            ]);
    for (const name of Object.keys(doc.components.headers)) expect(doc.components.headers[name].schema).toBeDefined();
  });

  it('shows success examples that are answers the operation could give (checked against its schema)', async () => {
    const withExamples = routeTable.filter((definition) => definition.example !== undefined);
    expect(withExamples.map((d) => d.name)).toContain('qc.oauth.token');
    for (const definition of withExamples)
      expect([definition.name, Value.Check(definition.response, definition.example)]).toEqual([definition.name, true]);
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    expect(operation(doc, 'post', '/oauth/token').responses['200'].content['application/json'].example.token_type).toBe(
      'Bearer',
    );
  });
});
