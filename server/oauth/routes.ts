import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { jsonResponse } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { routes } from '../core/routes/route-table.ts';
import { issueClientToken } from './token.ts';

const TokenForm = t.Object({
  grant_type: t.Optional(t.String()),
  client_id: t.Optional(t.String()),
  client_secret: t.Optional(t.String()),
  scope: t.Optional(t.String({ description: "Space-separated subset of the client's scopes (RFC 6749 3.3)" })),
});

export function registerOauth(app: QcApp, deps: Deps) {
  app.post(
    routes.oauthToken.path,
    async ({ body, request }) => {
      const form = body ?? {};
      const basic = basicCredentials(request.headers.get('authorization'));
      // The token response is not wrapped in the envelope (spec 1, item 3).
      const token = await issueClientToken(deps, {
        grantType: form.grant_type,
        clientId: form.client_id ?? basic?.id,
        clientSecret: form.client_secret ?? basic?.secret,
        scope: form.scope,
      });
      return jsonResponse(200, token, { 'cache-control': 'no-store' });
    },
    {
      qc: routes.oauthToken,
      body: t.Optional(TokenForm),
      type: ['application/x-www-form-urlencoded', 'application/json'],
      detail: {
        summary: routes.oauthToken.summary,
        tags: ['auth'],
        description:
          'Form-encoded client credentials grant. Also accepts HTTP Basic client authentication. The answer is `{access_token, token_type, expires_in, scope}` (not enveloped); account-scoped clients also get `account_scoped: true` and `property_ids: null`.',
      },
    },
  );
  app.get(routes.jwks.path, () => deps.keys.jwks(), {
    qc: routes.jwks,
    detail: { summary: routes.jwks.summary, tags: ['auth'] },
  });
}

function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const encoded = header?.match(/^Basic\s+(\S+)$/i)?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}
