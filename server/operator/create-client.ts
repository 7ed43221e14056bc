import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createClient, TIERS } from '../oauth/clients.ts';
import { RowId } from './operator-params.ts';

export const createClientOp = defineOperatorRoute({
  name: 'ops.clients.create',
  surface: 'ops',
  method: 'POST',
  path: '/clients',
  summary: 'Create an OAuth client for a customer (the secret is shown once)',
  body: t.Object({
    customer_id: RowId,
    name: t.Optional(t.String()),
    scopes: t.Array(t.String()),
    account_scoped: t.Optional(t.Boolean()),
    property_ids: t.Optional(t.Array(t.String())),
    endpoint_scopes: t.Optional(t.Array(t.String())),
    tier: t.Optional(t.Union(TIERS.map((x) => t.Literal(x)))),
  }),
  shownOnce: { fields: ['client_secret'], renewal: 'rotate it (POST /ops/clients/{client_id}/rotate-secret)' },
  async handle({ deps, body }) {
    const c = await createClient(deps, {
      kind: 'oauth',
      customerId: body.customer_id,
      name: body.name,
      scopes: body.scopes,
      accountScoped: body.account_scoped ?? false,
      propertyIds: body.property_ids ?? [],
      endpointScopes: body.endpoint_scopes ?? [],
      tier: body.tier,
    });
    return ok({
      client_id: c.clientId,
      client_secret: c.secret,
      scopes: c.scopes,
      account_scoped: c.accountScoped,
      property_ids: c.propertyExternalIds,
      endpoint_scopes: c.endpointScopes,
      tier: c.tier,
    });
  },
});
