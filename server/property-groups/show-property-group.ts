import { ok } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { GroupAnswer, GroupParams } from './model.ts';
import { pathGroup } from './path-group.ts';
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
  pathRecord: pathGroup,
  handle(_, group) {
    return ok(propertyGroupView(group));
  },
});
