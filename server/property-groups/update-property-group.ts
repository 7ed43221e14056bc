import { ok } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { accountProperties } from './account-scope.ts';
import { changeGroup, resolveGroup } from './groups.ts';
import { GroupAnswer, GroupParams, UpdateGroupBody } from './model.ts';
import { pathGroup } from './path-group.ts';
import { propertyGroupView } from './view.ts';

export const updatePropertyGroupRoute = defineRoute({
  name: 'qc.property_groups.update',
  method: 'PATCH',
  path: '/property-groups/:group',
  scope: 'groups.manage',
  bucket: 'config-writes',
  resource: 'property_group',
  summary: 'Rename, pause or resume a property group, or set its members',
  tags: ['property groups'],
  description:
    "Only the fields sent change. `paused: true` takes the group's properties out of every credential's allow-list (account-scoped ones included) on the next request, within a second; `paused: false` brings them back. `property_ids` replaces the members. Needs an account-scoped credential.",
  params: GroupParams,
  body: UpdateGroupBody,
  response: GroupAnswer,
  errors: ['errors.qc.account_scoped_credential_required'],
  pathRecord: pathGroup,
  async handle({ deps, principal, body }, group) {
    const members = body.property_ids ? await accountProperties(deps.db, principal, body.property_ids) : undefined;
    await deps.db.tx((tx) => changeGroup(tx, group, { name: body.name, paused: body.paused, propertyIds: members }));
    return ok(propertyGroupView(await resolveGroup(deps.db, principal.customerId, group.external_id)));
  },
});
