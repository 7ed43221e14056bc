import { dirname, join } from 'node:path';
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import YAML from 'yaml';
import { DESCRIPTION } from './description.ts';
import { docsPage } from './docs-page.ts';

// The plugin generates the document here; partners read the cached copies at openapi.json / openapi.yaml.
const GENERATED = '/v1/qc/openapi.generated.json';

// The docs UI is the API reference bundle pinned in the lockfile, served by us: the page works offline.
const SCALAR_BUNDLE = join(
  dirname(Bun.resolveSync('@scalar/api-reference', import.meta.dir)),
  'browser',
  'standalone.js',
);

/**
 * The OpenAPI document generated from the route definitions, and the docs UI: /v1/qc/openapi.json,
 * /v1/qc/openapi.yaml, /v1/qc/docs. The document is generated once and both forms are served from that one
 * object, so JSON and YAML never disagree and every fetch answers the same bytes.
 */
export function openapiRoutes() {
  let document: Promise<{ json: string; yaml: string }> | undefined;
  const load = (request: Request) => {
    document ??= fetchGenerated(request).then((spec) => ({ json: JSON.stringify(spec), yaml: YAML.stringify(spec) }));
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
          components: {
            securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or qc_ personal token' } },
          },
          security: [{ bearer: [] }],
        },
        // staticFile: false, or paths with a dot (/.well-known/jwks.json) are taken for static files and dropped.
        exclude: {
          staticFile: false,
          paths: [/^\/ops/, /^\/api\//, /^\/healthz/, /^\/readyz/, /^\/v1\/qc\/openapi/, /^\/v1\/qc\/docs/],
        },
      }),
    )
    .get('/v1/qc/openapi.json', async ({ request }) => {
      const { json } = await load(request);
      return new Response(json, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    })
    .get('/v1/qc/openapi.yaml', async ({ request }) => {
      const { yaml } = await load(request);
      return new Response(yaml, { headers: { 'content-type': 'application/yaml; charset=utf-8' } });
    })
    .get(
      '/v1/qc/docs',
      () => new Response(docsPage('/v1/qc/openapi.json'), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    )
    .get(
      '/v1/qc/docs/api-reference.js',
      () =>
        new Response(Bun.file(SCALAR_BUNDLE), {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
        }),
    );
}

let specSource: ((request: Request) => Promise<Response>) | undefined;

/** The root app registers itself so the document routes can read what the plugin generates. */
export function setSpecSource(handle: (request: Request) => Promise<Response>) {
  specSource = handle;
}

async function fetchGenerated(request: Request): Promise<unknown> {
  if (!specSource) throw new Error('spec source not set');
  const res = await specSource(new Request(new URL(GENERATED, request.url).toString()));
  return res.json();
}
