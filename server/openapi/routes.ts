import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import YAML from 'yaml';

const DESCRIPTION = `Partner API of the Hotel Connectivity Service.

All endpoints except the token endpoint and the JWKS need \`Authorization: Bearer <token>\` (an OAuth2
client-credentials JWT or a \`qc_\` personal token). Success bodies are \`{status: "ok", message, data}\`;
errors are \`{status: "error", message: "errors.<...>"}\` with the HTTP status, and 422 validation errors
carry an \`errors\` map keyed by field path. Single resources are returned as \`data\` itself; collections as
\`data.<plural>[]\` plus \`data.meta\`. Every response carries \`X-Qc-Request-Id\`; every error response carries
\`X-Qc-Support-Ticket\`. An unknown route answers 404 \`errors.not_found\`.

Rate limits: every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`
(Unix seconds of the next wall-clock minute) and \`X-RateLimit-Bucket\` (\`reads\`, \`config-writes\`,
\`inventory-writes\`, \`booking-actions\`, \`token\`); over budget is 429 \`errors.qc.rate_limit_exceeded\`
with \`Retry-After\`. Idempotency: every write accepts \`Idempotency-Key\` (up to 128 characters); the same key
and byte-identical body within 24 hours replays the first answer with \`Idempotency-Replayed: true\` and
\`Idempotency-Original-Timestamp\`; a different body is 409 \`errors.qc.idempotency_conflict\`.`;

/** OpenAPI generated from the route schemas: /v1/qc/openapi.json, /v1/qc/openapi.yaml and docs at /v1/qc/docs. */
export function openapiRoutes() {
  let cachedYaml: string | undefined;
  return new Elysia({ name: 'qc-openapi' })
    .use(
      openapi({
        path: '/v1/qc/docs',
        specPath: '/v1/qc/openapi.json',
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
    .get('/v1/qc/openapi.yaml', async ({ request }) => {
      if (!cachedYaml) {
        const json = await fetchSpec(request);
        cachedYaml = YAML.stringify(json);
      }
      return new Response(cachedYaml, { headers: { 'content-type': 'application/yaml; charset=utf-8' } });
    });
}

let specSource: ((request: Request) => Promise<Response>) | undefined;

/** The root app registers itself so the YAML route can read the JSON spec the plugin generates. */
export function setSpecSource(handle: (request: Request) => Promise<Response>) {
  specSource = handle;
}

async function fetchSpec(request: Request): Promise<unknown> {
  if (!specSource) throw new Error('spec source not set');
  const url = new URL('/v1/qc/openapi.json', request.url);
  const res = await specSource(new Request(url.toString()));
  return res.json();
}
