import { t } from 'elysia';
import { bearerToken } from '../core/auth/credentials.ts';
import { DASHBOARD_AUDIENCE, verifyJwt } from '../core/auth/jwt.ts';
import type { Deps } from '../core/deps.ts';
import { unauthorized } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { createJsonApp } from '../core/http/json-app.ts';
import { createClient } from '../ops/clients.ts';

/**
 * Personal API tokens, minted from the dashboard (spec 4.1). The dashboard authenticates with its own
 * session JWT (audience qc-dashboard, claim customer_id); the operator API mints those here.
 */
export function dashboardRoutes(deps: Deps) {
  const sessions = new WeakMap<Request, number>();
  return (
    createJsonApp(deps, '/api/v1/pem-systems/qc', 'qc-dashboard')
      // Authenticate before body validation, so a missing session is a 401 whatever the body.
      .onTransform(async ({ request }) => {
        const bearer = bearerToken(request.headers.get('authorization'));
        const claims = bearer ? await verifyJwt(deps.keys, deps.clock, DASHBOARD_AUDIENCE, bearer) : undefined;
        if (!claims || typeof claims.customer_id !== 'number') throw unauthorized(bearer);
        sessions.set(request, claims.customer_id);
      })
      .post(
        '/api-tokens',
        async ({ body, request }) => {
          const created = await createClient(deps, {
            kind: 'personal',
            customerId: sessions.get(request) as number,
            name: body.name,
            scopes: body.scopes,
            accountScoped: body.account_scoped ?? false,
            propertyIds: body.property_ids ?? [],
            endpointScopes: body.endpoint_scopes ?? [],
          });
          return ok({
            id: created.clientId,
            name: body.name,
            token: created.secret,
            scopes: created.scopes,
            account_scoped: created.accountScoped,
            property_ids: created.accountScoped ? [] : created.propertyExternalIds,
            endpoint_scopes: created.endpointScopes,
          });
        },
        {
          body: t.Object({
            name: t.String({ minLength: 1, maxLength: 200 }),
            scopes: t.Array(t.String()),
            account_scoped: t.Optional(t.Boolean()),
            property_ids: t.Optional(t.Array(t.String())),
            endpoint_scopes: t.Optional(t.Array(t.String())),
          }),
          detail: {
            summary: 'Mint a personal API token (shown once)',
            tags: ['dashboard'],
          },
        },
      )
  );
}
