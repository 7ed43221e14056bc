import { t } from 'elysia';
import { basicCredentials } from '../core/auth/credentials.ts';
import { defineRoute } from '../core/routes/route.ts';
import { issueClientToken } from './token.ts';
import { TOKEN_ANSWER_HEADERS, tokenErrorCode } from './token-errors.ts';

const TokenForm = t.Object({
  grant_type: t.Optional(t.String()),
  client_id: t.Optional(t.String()),
  client_secret: t.Optional(t.String()),
  scope: t.Optional(t.String({ description: "Space-separated subset of the client's scopes (RFC 6749 3.3)" })),
});

/** RFC 6749 5.1, not wrapped in the envelope (spec 1, item 3). */
const TokenSchema = t.Object({
  access_token: t.String(),
  token_type: t.Literal('Bearer'),
  expires_in: t.Integer(),
  scope: t.String(),
  account_scoped: t.Optional(t.Literal(true)),
  property_ids: t.Optional(t.Null()),
});

export const issueToken = defineRoute({
  name: 'qc.oauth.token',
  method: 'POST',
  path: '/oauth/token',
  scope: null,
  bucket: 'token',
  resource: 'oauth',
  auth: 'none',
  summary: 'Exchange client credentials for an access token',
  tags: ['auth'],
  description:
    'Form-encoded client credentials grant (RFC 6749 4.4). Also accepts HTTP Basic client authentication, and a JSON body with the same fields; any other media type is 415. The answer is `{access_token, token_type, expires_in, scope}` (not enveloped); account-scoped clients also get `account_scoped: true` and `property_ids: null`. Parameters it does not know are ignored (RFC 6749 3.2). Every answer, refusals included, carries `Cache-Control: no-store` and `Pragma: no-cache`.\n\n' +
    'Every refusal keeps the error envelope and adds the RFC 6749 5.2 `error` code that fits, which OAuth client libraries read: 401 `invalid_client` (with `WWW-Authenticate: Basic realm="qc-connectivity", charset="UTF-8"`); 422 `invalid_request` (a missing `grant_type`, a field of the wrong type, a body that is not valid JSON), `unsupported_grant_type` or `invalid_scope`; 413 and 415 `invalid_request`; 500 `server_error`; 503 `temporarily_unavailable` (retry after Retry-After). A 429 carries no `error`: RFC 6749 has no code for it, and each that comes close would mislead a client (a malformed request, a service down for all); its status and Retry-After say when to come back.',
  body: t.Optional(TokenForm),
  contentTypes: ['application/x-www-form-urlencoded', 'application/json'],
  response: TokenSchema,
  // Shaped like a real token (RS256, a kid of the key set, our iss and aud) with a dummy signature: partners decode it.
  example: {
    access_token:
      'eyJhbGciOiJSUzI1NiIsImtpZCI6InFjLW14MDA0eDZpLTc3OTE5ZWZhIiwidHlwIjoiSldUIn0.eyJzdWIiOiJxY2NfLi4uIiwiaXNzIjoicWMtY29ubmVjdGl2aXR5IiwiYXVkIjoicWMtcGFydG5lci1hcGkifQ.c2lnbmF0dXJl',
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'inventory.read inventory.write bookings.read',
  },
  errors: ['errors.qc.invalid_client', 'errors.qc.invalid_scope'],
  // RFC 6749 5.2's `error`, which OAuth client libraries read: the handler's refusals carry theirs (./token.ts), the
  // pipeline's and our failures get one from tokenErrorCode (./token-errors.ts; 429 none, as it explains).
  errorFields: {
    401: { error: t.Literal('invalid_client', { description: 'RFC 6749 5.2 error code' }) },
    413: { error: t.Literal('invalid_request', { description: 'RFC 6749 5.2 error code' }) },
    415: { error: t.Literal('invalid_request', { description: 'RFC 6749 5.2 error code' }) },
    422: {
      error: t.Union([t.Literal('invalid_request'), t.Literal('unsupported_grant_type'), t.Literal('invalid_scope')], {
        description:
          "RFC 6749 5.2 error code: `invalid_request` for a missing or malformed parameter or body, `unsupported_grant_type` for another grant type, `invalid_scope` for a scope outside the client's",
      }),
    },
    500: { error: t.Literal('server_error', { description: 'RFC 6749 4.1.2.1 error code' }) },
    503: { error: t.Literal('temporarily_unavailable', { description: 'RFC 6749 4.1.2.1 error code' }) },
  },
  errorExtra: tokenErrorCode,
  answerHeaders: TOKEN_ANSWER_HEADERS,
  async handle({ deps, body, request }) {
    const form = body ?? {};
    const basic = basicCredentials(request.headers.get('authorization'));
    const token = await issueClientToken(deps, {
      grantType: form.grant_type,
      clientId: form.client_id ?? basic?.id,
      clientSecret: form.client_secret ?? basic?.secret,
      scope: form.scope,
    });
    return token;
  },
});
