import { t } from 'elysia';
import { basicCredentials } from '../core/auth/credentials.ts';
import { Answer, defineRoute } from '../core/routes/route.ts';
import { issueClientToken } from './token.ts';

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
    'Form-encoded client credentials grant. Also accepts HTTP Basic client authentication. The answer is `{access_token, token_type, expires_in, scope}` (not enveloped); account-scoped clients also get `account_scoped: true` and `property_ids: null`. Credentials refused: 401 `errors.qc.invalid_client` with `WWW-Authenticate: Basic realm="qc-connectivity", charset="UTF-8"` (RFC 6749 5.2).',
  body: t.Optional(TokenForm),
  contentTypes: ['application/x-www-form-urlencoded', 'application/json'],
  response: TokenSchema,
  example: {
    access_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6IjIwMjYtMTEifQ.eyJzdWIiOiJxY2NfLi4uIn0.c2lnbmF0dXJl',
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'inventory.read inventory.write bookings.read',
  },
  errors: ['errors.qc.invalid_client', 'errors.qc.invalid_scope'],
  // RFC 6749 5.2's `error`, which OAuth client libraries read (./token.ts): on 422, `invalid_request` for a
  // missing grant_type, `unsupported_grant_type` for another one, `invalid_scope` for a scope outside the client's.
  errorFields: {
    401: { error: t.Literal('invalid_client', { description: 'RFC 6749 5.2 error code' }) },
    422: {
      error: t.Union([t.Literal('invalid_request'), t.Literal('unsupported_grant_type'), t.Literal('invalid_scope')], {
        description: 'RFC 6749 5.2 error code (on the refusals of the grant type and the scope)',
      }),
    },
  },
  async handle({ deps, body, request }) {
    const form = body ?? {};
    const basic = basicCredentials(request.headers.get('authorization'));
    const token = await issueClientToken(deps, {
      grantType: form.grant_type,
      clientId: form.client_id ?? basic?.id,
      clientSecret: form.client_secret ?? basic?.secret,
      scope: form.scope,
    });
    return new Answer(200, token, { 'cache-control': 'no-store' });
  },
});
