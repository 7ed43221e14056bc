import { PolicyInUseFields } from '../config-surfaces/model.ts';
import { ownedDeleteRoute } from '../config-surfaces/owned-routes.ts';
import { deleteCancellationPolicy } from './service.ts';

export const deleteCancellationPolicyRoute = ownedDeleteRoute({
  name: 'qc.cancellation_policies.delete',
  path: '/properties/:property/cancellation_policies',
  table: 'cancellation_policies',
  param: 'policy',
  resource: 'cancellation_policy',
  summary: 'Delete a cancellation policy',
  description:
    'While a rate plan references the policy: 409 `errors.qc.cancellation_policy_in_use` with `rate_plan_ids` (move those plans first: PATCH rate_plans/{id} with another `cancellation_policy_id`). Event `cancellation_policy.deleted`.',
  errors: ['errors.qc.cancellation_policy_in_use'],
  errorFields: PolicyInUseFields,
  remove: deleteCancellationPolicy,
});
