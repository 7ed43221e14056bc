import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { requireAccountScope } from './account-scope.ts';
import { type PropertyGroupWithMembers, resolveGroup } from './groups.ts';

/**
 * The group of every route under /property-groups/:group, declared as the route's `pathRecord`: the pipeline
 * resolves it for the caller before it reads the body, so a credential narrowed to some properties is a 403, and
 * another customer's group or an unknown id a 404, whatever the body (README, Authorization).
 */
export const pathGroup: PathRecordResolver<PropertyGroupWithMembers> = async (deps, principal, params) => {
  requireAccountScope(principal);
  return resolveGroup(deps.db, principal.customerId, params.group ?? '');
};
