import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { pagingQuery } from '../core/http/paging.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { findLegacyKeys } from './cutover-setting.ts';

/**
 * GET /ops/legacy-keys?api_key=&property_id=&customer_id=: the keys the cutover routes take by id, found without a
 * database query. `api_key` finds the one key a PMS is configured with (compared by its digest: the key itself is
 * not stored); `property_id` (external id) and `customer_id` list theirs. Newest first, paged like every list.
 */
export const listLegacyKeys = defineOperatorRoute({
  name: 'ops.legacy_keys.list',
  surface: 'ops',
  method: 'GET',
  path: '/legacy-keys',
  summary: 'Find legacy api keys (by the key, a property or a customer)',
  query: t.Object({
    api_key: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    property_id: t.Optional(t.String({ format: 'uuid' })),
    customer_id: t.Optional(t.Integer({ minimum: 1 })),
    ...pagingQuery(),
  }),
  async handle({ deps, query }) {
    return ok(await findLegacyKeys(deps, query));
  },
});
