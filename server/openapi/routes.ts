import { join } from 'node:path';
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import YAML from 'yaml';
import { openapiComponents } from '../core/http/openapi-components.ts';
import { CompressedBody } from './compressed-body.ts';
import { DESCRIPTION } from './description.ts';
import { docsPage } from './docs-page.ts';
import { toOpenApi31 } from './openapi-31.ts';

// A relative URL (OpenAPI 3.1): resolved against `servers`, so it is right whichever host serves the document.
const TOKEN_PATH = '/v1/qc/oauth/token';
const SERVER_DESCRIPTION = 'QC_PUBLIC_URL when the service sets it, else the address this document was fetched from';

// The plugin generates the document here; partners read the cached copies at openapi.json / openapi.yaml.
const GENERATED = '/v1/qc/openapi.generated.json';

// The docs UI is the prebuilt single-file bundle of the API reference, vendored (vendor/api-reference/VERSION,
// refreshed by scripts/vendor-api-reference.sh) and served by us: the page works offline, and the install does
// not carry the ~270 packages (and their Node 22 engine) that the renderer's npm package depends on.
const API_REFERENCE_BUNDLE = join(import.meta.dir, '..', '..', 'vendor', 'api-reference', 'standalone.js');

/**
 * The OpenAPI document generated from the route definitions, and the docs UI: /v1/qc/openapi.json,
 * /v1/qc/openapi.yaml, /v1/qc/docs. The document is generated once and both forms are served from that one
 * object, so JSON and YAML never disagree and every fetch answers the same bytes.
 */
export function openapiRoutes(publicUrl: string | undefined) {
  let generated: Promise<Record<string, unknown>> | undefined;
  const byServer = new Map<string, Promise<{ json: CompressedBody; yaml: CompressedBody }>>();
  let bundle: Promise<CompressedBody> | undefined;
  // `servers` is QC_PUBLIC_URL when set, else the origin the document was fetched from: a partner trying the
  // service locally gets a document whose "try it" and token URL point at the server it is talking to.
  const load = (request: Request) => {
    const server = (publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
    let document = byServer.get(server);
    if (!document) {
      generated ??= fetchGenerated(request);
      document = generated.then(({ openapi, info, ...rest }) => {
        const spec = { openapi, info, servers: [{ url: server, description: SERVER_DESCRIPTION }], ...rest };
        return {
          json: new CompressedBody(JSON.stringify(spec), { 'content-type': 'application/json; charset=utf-8' }),
          yaml: new CompressedBody(YAML.stringify(spec), { 'content-type': 'application/yaml; charset=utf-8' }),
        };
      });
      byServer.set(server, document);
    }
    return document;
  };
  return new Elysia({ name: 'qc-openapi' })
    .use(
      openapi({
        path: '/v1/qc/docs-generated',
        provider: null,
        specPath: GENERATED,
        documentation: {
          info: { title: 'Hotel Connectivity Service', version: '1.0.0', description: DESCRIPTION },
          // Plain JSON declared `as const` (header names are a type); the plugin's typings want mutable arrays.
          components: openapiComponents(TOKEN_PATH) as unknown as Record<string, never>,
          security: [{ bearer: [] }, { oauth2: [] }],
        },
        // staticFile: false, or paths with a dot (/.well-known/jwks.json) are taken for static files and dropped.
        exclude: {
          staticFile: false,
          paths: [
            /^\/ops/,
            /^\/metrics/,
            /^\/api\//,
            /^\/healthz/,
            /^\/readyz/,
            /^\/v1\/qc\/openapi/,
            /^\/v1\/qc\/docs/,
          ],
        },
      }),
    )
    .get('/v1/qc/openapi.json', async ({ request }) => (await load(request)).json.respond(request))
    .get('/v1/qc/openapi.yaml', async ({ request }) => (await load(request)).yaml.respond(request))
    .get(
      '/v1/qc/docs',
      () => new Response(docsPage('/v1/qc/openapi.json'), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    )
    .get('/v1/qc/docs/api-reference.js', async ({ request }) => {
      bundle ??= Bun.file(API_REFERENCE_BUNDLE)
        .bytes()
        .then(
          (bytes) =>
            new CompressedBody(bytes, {
              'content-type': 'text/javascript; charset=utf-8',
              'cache-control': 'public, max-age=86400',
            }),
        );
      return (await bundle).respond(request);
    });
}

let specSource: ((request: Request) => Promise<Response>) | undefined;

/** The root app registers itself so the document routes can read what the plugin generates. */
export function setSpecSource(handle: (request: Request) => Promise<Response>) {
  specSource = handle;
}

async function fetchGenerated(request: Request): Promise<Record<string, unknown>> {
  if (!specSource) throw new Error('spec source not set');
  const res = await specSource(new Request(new URL(GENERATED, request.url).toString()));
  return toOpenApi31(await res.json()) as Record<string, unknown>;
}
