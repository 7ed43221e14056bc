import { describe, expect, it } from 'bun:test';
import { routeTable } from '../../route-table.ts';
import { testAppPerFile } from '../../testing/harness.ts';
import { successStatuses, uriOf } from '../routes/route.ts';

const t = testAppPerFile();

type Schema = Record<string, unknown>;

/** Every schema node under `node` with its path, nested properties, items and unions included. */
function* schemaNodes(node: unknown, path: string): Generator<[string, Schema]> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* schemaNodes(item, `${path}/${i}`);
    return;
  }
  yield [path, node as Schema];
  for (const [key, value] of Object.entries(node)) if (key !== 'example') yield* schemaNodes(value, `${path}/${key}`);
}

describe('OpenAPI operations', () => {
  it('publish request bodies as the service reads them: undeclared fields taken, also after each route has run', async () => {
    // Elysia compiles a route's body validator at its first request, writing `additionalProperties: false` into the
    // schema; the document is generated at its first fetch. Run every route with a body before fetching it.
    for (const route of routeTable.filter((r) => r.body && r.method !== 'GET')) {
      const path = uriOf(route).replace(/\{\w+\}/g, 'x');
      await t.request(route.method, path, route.auth === 'none' ? { form: { a: 'b' } } : { body: {} });
    }
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const closed: string[] = [];
    const maps: string[] = [];
    for (const [uri, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>))
      for (const [method, operation] of Object.entries(methods))
        for (const [path, node] of schemaNodes(operation.requestBody, `${method} ${uri}`)) {
          if (node.additionalProperties !== false) continue;
          // A map refuses keys outside its pattern (json-body.ts keeps that rule): documented as it is.
          (node.patternProperties ? maps : closed).push(path);
        }
    expect(closed).toEqual([]);
    expect(maps.some((path) => path.includes('/properties/body_html'))).toBe(true);
    // Nested objects are walked too: a booking's guest takes a field it does not declare, like the body.
    const create = doc.paths['/v1/qc/bookings'].post.requestBody.content['application/json'].schema;
    expect(create.properties.guest.type).toBe('object');
    expect(create.properties.guest.additionalProperties).toBeUndefined();
  });

  it('list every success status a route answers, the 200 of a reused booking reference beside the 201', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const listed = routeTable.map((route) => {
      const responses = doc.paths[uriOf(route)][route.method.toLowerCase()].responses as Record<string, Schema>;
      return [route.name, Object.keys(responses).filter((status) => Number(status) < 300)];
    });
    expect(listed).toEqual(routeTable.map((route) => [route.name, successStatuses(route).map(String).sort()]));
    const create = doc.paths['/v1/qc/bookings'].post.responses;
    const agency = doc.paths['/v1/qc/b2b/bookings'].post.responses;
    for (const responses of [create, agency]) {
      expect(Object.keys(responses)).toContain('201');
      expect(responses['200'].description).toContain('`reference` you already used');
      expect(responses['200'].content['application/json'].schema).toEqual(
        responses['201'].content['application/json'].schema,
      );
    }
  });

  it('documents the fields an error adds: accepted_content_types on every 415, limit_bytes on every 413, the token endpoint’s `error`', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const fieldsOf = (operation: Schema, status: string) =>
      Object.keys(
        (operation.responses as any)[status].content['application/json'].schema.allOf[1].properties as Schema,
      );
    // The token endpoint adds RFC 6749's `error` to every refusal where a code fits (server/oauth/token-errors.ts).
    const oauthError = (uri: string) => (uri === '/v1/qc/oauth/token' ? ['error'] : []);
    for (const [uri, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>))
      for (const [method, operation] of Object.entries(methods))
        if ((operation.responses as Schema)['415'])
          expect([method, uri, fieldsOf(operation, '415')]).toEqual([
            method,
            uri,
            ['message', 'accepted_content_types', ...oauthError(uri)],
          ]);
    // Every route that reads a body bounds it first: its 413 is documented, with the limit it answers.
    let bounded = 0;
    for (const [uri, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>))
      for (const [method, operation] of Object.entries(methods))
        if ((operation.responses as Schema)['415']) {
          bounded++;
          expect([method, uri, fieldsOf(operation, '413')]).toEqual([
            method,
            uri,
            ['message', 'limit_bytes', ...oauthError(uri)],
          ]);
        }
    expect(bounded).toBeGreaterThan(50);
    const token = doc.paths['/v1/qc/oauth/token'].post;
    expect(fieldsOf(token, '401')).toEqual(['message', 'error']);
    expect(fieldsOf(token, '422')).toEqual(['message', 'errors', 'error']);
    expect(fieldsOf(token, '429')).toEqual(['message']);
    expect(fieldsOf(token, '500')).toEqual(['message', 'error']);
  });
});
