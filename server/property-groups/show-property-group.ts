import { ok } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { requireAccountScope } from './account-scope.ts';
import { resolveGroup } from './groups.ts';
import { GroupAnswer, GroupParams } from './model.ts';
import { propertyGroupView } from './view.ts';

export const showPropertyGroup = defineRoute({
  name: 'qc.property_groups.show',
  method: 'GET',
  path: '/property-groups/:group',
  scope: 'groups.manage',
  bucket: 'reads',
  resource: 'property_group',
  summary: 'A property group and its members',
  tags: ['property groups'],
  params: GroupParams,
  response: GroupAnswer,
  errors: ['errors.qc.account_scoped_credential_required'],
  async handle({ deps, principal, params }) {
    requireAccountScope(principal);
    return ok(propertyGroupView(await resolveGroup(deps.db, principal.customerId, params.group)));
  },
});
