import { clientSecretAccepted, type StoredClientSecrets } from '../core/auth/client-secrets.ts';
import { canBeCredential } from '../core/auth/credentials.ts';
import { ACCESS_TOKEN_TTL_SECONDS, PARTNER_AUDIENCE, signJwt } from '../core/auth/jwt.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';

export interface TokenRequest {
  grantType: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  scope: string | undefined;
}

// Token endpoint errors also carry RFC 6749 5.2's `error` code, which OAuth client libraries read (added to every
// refusal by ./token-errors.ts; a grant type refused carries its own, below). Its 401 challenges the client
// authentication the endpoint takes (HTTP Basic, RFC 6749 5.2 and RFC 7617), not a bearer.
const TOKEN_CHALLENGE = 'Basic realm="qc-connectivity", charset="UTF-8"';
const invalidClient = () => new ApiError('errors.qc.invalid_client', {}, { 'www-authenticate': TOKEN_CHALLENGE });
// A missing grant_type is a missing parameter (RFC 6749 5.2 `invalid_request`): its field says `required`, as
// every missing field does; a grant type sent but not served is `unsupported_grant_type` in both places.
const badGrantType = (sent: string | undefined) => {
  const rule = sent ? 'unsupported_grant_type' : 'required';
  return new ApiError('errors.validation_error', {
    errors: { grant_type: [`customer.oauth.messages.${rule}`] },
    error: sent ? 'unsupported_grant_type' : 'invalid_request',
  });
};
// Compared against when the client id is unknown, so both paths do the same constant-time work.
const NO_CLIENT: StoredClientSecrets = {
  secret_hash: '0'.repeat(64),
  previous_secret_hash: null,
  previous_secret_expires_at: null,
};

export async function issueClientToken(deps: Deps, req: TokenRequest) {
  if (req.grantType !== 'client_credentials') throw badGrantType(req.grantType);
  if (!req.clientId || !req.clientSecret) throw invalidClient();
  if (!canBeCredential(req.clientId) || !canBeCredential(req.clientSecret)) throw invalidClient();

  const [client] = await deps.db.sql<
    StoredClientSecrets & { client_id: string; scopes: string[]; account_scoped: boolean; property_ids: number[] }
  >`
    select client_id, secret_hash, previous_secret_hash, previous_secret_expires_at, scopes, account_scoped, property_ids
    from api_clients where client_id = ${req.clientId} and kind = 'oauth' and revoked_at is null`;
  // A rotated-out secret still gets tokens during its overlap (server/oauth/client-secret.ts).
  const matches = clientSecretAccepted(client ?? NO_CLIENT, req.clientSecret, deps.clock.now());
  if (!client || !matches) throw invalidClient();

  const requested = req.scope?.trim() ? req.scope.trim().split(/\s+/) : client.scopes;
  if (requested.some((s) => !client.scopes.includes(s))) throw new ApiError('errors.qc.invalid_scope');

  const scope = requested.join(' ');
  const access_token = await signJwt(deps.keys, deps.clock, PARTNER_AUDIENCE, { sub: client.client_id, scope });
  const base = { access_token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, scope };
  if (!client.account_scoped) return base;
  return { ...base, account_scoped: true, property_ids: null };
}
