import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import { createClient } from '../oauth/clients.ts';
import type { CustomerOf } from './dashboard-session.ts';

/** POST /api-tokens (spec 4.1): mints a personal API token, shown once. */
export function mintPersonalToken(deps: Deps, customerOf: CustomerOf) {
  return (app: JsonApp) =>
    app.post(
      '/api-tokens',
      async ({ body, request }) => {
        const created = await createClient(deps, {
          kind: 'personal',
          customerId: customerOf(request),
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
    );
}
