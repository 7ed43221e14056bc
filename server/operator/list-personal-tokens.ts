import { ok, pageMeta } from '../core/http/envelope.ts';
import { PagingQuery, pageOf } from '../core/http/paging.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { listPersonalTokens } from './personal-tokens.ts';

/** GET /api-tokens: the customer's personal tokens, newest first, without the tokens themselves. */
export const listPersonalTokensOp = defineOperatorRoute({
  name: 'dashboard.api_tokens.list',
  surface: 'dashboard',
  method: 'GET',
  path: '/api-tokens',
  summary: 'List personal API tokens',
  description:
    'Newest first, revoked ones included with `revoked_at`. The token itself is never shown again after minting.',
  query: PagingQuery,
  async handle({ deps, query, customerId }) {
    const { page, perPage } = pageOf(query);
    const { tokens, total } = await listPersonalTokens(deps.db, customerId, page, perPage);
    return ok({ api_tokens: tokens, meta: pageMeta(total, page, perPage) });
  },
});
