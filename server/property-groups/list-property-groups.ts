import { ok, pageMeta } from '../core/http/envelope.ts';
import { PagingQuery, pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { requireAccountScope } from './account-scope.ts';
import { listGroups } from './groups.ts';
import { GroupListAnswer } from './model.ts';
import { propertyGroupView } from './view.ts';

export const listPropertyGroups = defineRoute({
  name: 'qc.property_groups.list',
  method: 'GET',
  path: '/property-groups',
  scope: 'groups.manage',
  bucket: 'reads',
  resource: 'property_group',
  summary: "The account's property groups",
  tags: ['property groups'],
  description:
    'Oldest first, paged like every list, each with its members (`property_ids`, external ids) and whether it is paused. Needs an account-scoped credential.',
  query: PagingQuery,
  response: GroupListAnswer,
  errors: ['errors.qc.account_scoped_credential_required'],
  async handle({ deps, principal, query }) {
    requireAccountScope(principal);
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listGroups(deps.db, principal.customerId, page, perPage);
    return ok({ property_groups: rows.map(propertyGroupView), meta: pageMeta(total, page, perPage) });
  },
});
