import { PERSONAL_TOKEN_PREFIX } from '../core/auth/authenticate.ts';
import { SCOPES } from '../core/auth/scopes.ts';
import { randomSecret, sha256Hex } from '../core/auth/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import { findProperties } from '../core/resolve.ts';
import { unknownEndpointScopes } from '../core/routes/endpoint-scopes.ts';
import { newClientSecret } from './client-secret.ts';

export interface NewClient {
  kind: 'oauth' | 'personal';
  customerId: number;
  name?: string;
  scopes: string[];
  accountScoped: boolean;
  /** External property ids or partner codes of the customer's properties. */
  propertyIds: string[];
  endpointScopes: string[];
  tier?: string;
}

export interface CreatedClient {
  id: number;
  clientId: string;
  /** The client secret (oauth) or the whole token (personal): returned once, stored only as a hash. */
  secret: string;
  scopes: string[];
  accountScoped: boolean;
  propertyExternalIds: string[];
  endpointScopes: string[];
  tier: string;
}

export const TIERS = ['standard', 'premium'] as const;

/** One way to create a credential, used by the operator API, the dashboard and the demo. */
export async function createClient(deps: Deps, input: NewClient): Promise<CreatedClient> {
  const errors: FieldErrors = {};
  const resource = input.kind === 'oauth' ? 'client' : 'api_token';
  const badScopes = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (badScopes.length) errors.scopes = [`customer.${resource}.messages.in`];
  if (unknownEndpointScopes(input.endpointScopes, deps.routes).length)
    errors.endpoint_scopes = [`customer.${resource}.messages.unknown_endpoint`];
  const tier = input.tier ?? 'standard';
  if (!(TIERS as readonly string[]).includes(tier)) errors.tier = [`customer.${resource}.messages.in`];

  // account_scoped: the allow-list is resolved live per request; property_ids is ignored and stored empty.
  const wanted = input.accountScoped ? [] : input.propertyIds;
  const matches = await findProperties(deps.db, { customerId: input.customerId }, wanted);
  const found = [...new Set(matches.flatMap((p) => (p ? [p] : [])))];
  const unknown = matches.filter((p) => !p);
  if (unknown.length) errors.property_ids = [`customer.${resource}.messages.unknown_property`];
  if (Object.keys(errors).length) throw validationError(errors);

  const secret = input.kind === 'personal' ? `${PERSONAL_TOKEN_PREFIX}${randomSecret()}` : newClientSecret();
  const clientId = input.kind === 'personal' ? `pt_${randomSecret(9)}` : `qcc_${randomSecret(12)}`;
  const [row] = await deps.db.sql<{ id: number }>`
    insert into api_clients (client_id, kind, customer_id, name, secret_hash, scopes, account_scoped, property_ids, endpoint_scopes, tier)
    values (${clientId}, ${input.kind}, ${input.customerId}, ${input.name ?? ''}, ${sha256Hex(secret)}, ${input.scopes},
      ${input.accountScoped}, ${found.map((p) => p.id)}, ${input.endpointScopes}, ${tier})
    returning id`;
  return {
    id: row?.id ?? 0,
    clientId,
    secret,
    scopes: input.scopes,
    accountScoped: input.accountScoped,
    propertyExternalIds: found.map((p) => p.external_id),
    endpointScopes: input.endpointScopes,
    tier,
  };
}

/** Revokes an API client (OAuth or personal) for good; undefined when there is no such client. */
export async function revokeClient(db: Db, clientId: string): Promise<{ client_id: string } | undefined> {
  const [row] = await db.sql<{ client_id: string }>`
    update api_clients set revoked_at = coalesce(revoked_at, now()) where client_id = ${clientId} returning client_id`;
  return row;
}
