import { ok } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { accountProperties, requireAccountScope } from './account-scope.ts';
import { changeGroup, createPropertyGroup, resolveGroup } from './groups.ts';
import { CreateGroupBody, GroupAnswer } from './model.ts';
import { propertyGroupView } from './view.ts';

export const createPropertyGroupRoute = defineRoute({
  name: 'qc.property_groups.create',
  method: 'POST',
  path: '/property-groups',
  scope: 'groups.manage',
  bucket: 'config-writes',
  resource: 'property_group',
  summary: 'Create a property group',
  tags: ['property groups'],
  description:
    "Answers 201 with the group. `property_ids` (external ids or partner codes of the account's properties; 422 `in` for another) move those properties into it: a property belongs to one group at most. Needs an account-scoped credential.",
  body: CreateGroupBody,
  status: 201,
  response: GroupAnswer,
  errors: ['errors.qc.account_scoped_credential_required'],
  async handle({ deps, principal, body, request }) {
    requireAccountScope(principal);
    const members = body.property_ids ? await accountProperties(deps.db, principal, body.property_ids) : undefined;
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const group = await createPropertyGroup(tx, principal.customerId, body.name);
      if (members) await changeGroup(tx, group, { propertyIds: members });
      const answer = ok(propertyGroupView(await resolveGroup(tx, principal.customerId, group.external_id)));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  },
});
