import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createClient } from '../oauth/clients.ts';

/** POST /api-tokens (spec 4.1): mints a personal API token for the session's customer, shown once. */
export const mintPersonalTokenOp = defineOperatorRoute({
  name: 'dashboard.api_tokens.create',
  surface: 'dashboard',
  method: 'POST',
  path: '/api-tokens',
  summary: 'Mint a personal API token (shown once)',
  description: [
    'Answers the token once: it is stored as a digest only. The same Idempotency-Key and body again answers the first',
    'answer with `token` null, `secret_withheld: ["data.token"]` and a `detail` saying how to get a new one.',
  ].join(' '),
  body: t.Object({
    name: t.String({ minLength: 1, maxLength: 200 }),
    scopes: t.Array(t.String()),
    account_scoped: t.Optional(t.Boolean()),
    property_ids: t.Optional(t.Array(t.String())),
    endpoint_scopes: t.Optional(t.Array(t.String())),
  }),
  shownOnce: {
    fields: ['token'],
    renewal: 'revoke this token (DELETE /api/v1/pem-systems/qc/api-tokens/{id}) and mint another',
  },
  async handle({ deps, body, customerId }) {
    const created = await createClient(deps, {
      kind: 'personal',
      customerId,
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
});
