import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { permissionCatalogue } from './catalogue.ts';

const Endpoint = t.Object({
  name: t.String(),
  methods: t.Array(t.String()),
  uri: t.String(),
  scope: t.Array(t.String()),
  bucket: t.String({
    description:
      'The rate-limit bucket the operation spends, as its X-RateLimit-Bucket header names it: reads, config-writes, inventory-writes (a budget per endpoint), booking-actions or token',
  }),
});
const Resource = t.Object({ resource: t.String(), wildcard: t.String(), endpoint_count: t.Integer() });

let built: ReturnType<typeof permissionCatalogue> | undefined;

export const listPermissions = defineRoute({
  name: 'qc.permissions.list',
  method: 'GET',
  path: '/permissions',
  scope: null,
  bucket: 'reads',
  resource: 'permission',
  summary: 'Endpoints and resources this service exposes, with their scopes and rate-limit buckets',
  tags: ['auth'],
  description:
    'Endpoints sorted by name (code-point order), each with its methods, URI template, required scope and rate-limit bucket; resources with the wildcard usable in endpoint_scopes. endpoint_scopes narrows the routes that need a scope; a route whose scope is empty answers every token.',
  response: okSchema(t.Object({ endpoints: t.Array(Endpoint), resources: t.Array(Resource) })),
  handle({ deps }) {
    // The table is fixed for the life of the process: build the answer once.
    built ??= permissionCatalogue(deps.routes);
    return ok(built);
  },
});
