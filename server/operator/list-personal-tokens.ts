import type { Deps } from '../core/deps.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { JsonApp } from '../core/http/json-app.ts';
import { PagingQuery, pageOf } from '../core/http/paging.ts';
import type { CustomerOf } from './dashboard-session.ts';
import { listPersonalTokens } from './personal-tokens.ts';

/** GET /api-tokens: the customer's personal tokens, newest first, without the tokens themselves. */
export function listPersonalTokensRoute(deps: Deps, customerOf: CustomerOf) {
  return (app: JsonApp) =>
    app.get(
      '/api-tokens',
      async ({ query, request }) => {
        const { page, perPage } = pageOf(query);
        const { tokens, total } = await listPersonalTokens(deps.db, customerOf(request), page, perPage);
        return ok({ api_tokens: tokens, meta: pageMeta(total, page, perPage) });
      },
      {
        query: PagingQuery,
        detail: {
          summary: 'List personal API tokens',
          description:
            'Newest first, revoked ones included with `revoked_at`. The token itself is never shown again after minting.',
          tags: ['dashboard'],
        },
      },
    );
}
