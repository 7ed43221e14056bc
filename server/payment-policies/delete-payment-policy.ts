import { PolicyInUseFields } from '../config-surfaces/model.ts';
import { ownedDeleteRoute } from '../config-surfaces/owned-routes.ts';
import { deletePaymentPolicy } from './service.ts';

export const deletePaymentPolicyRoute = ownedDeleteRoute({
  name: 'qc.payment_policies.delete',
  path: '/properties/:property/payment_policies',
  table: 'payment_policies',
  param: 'policy',
  resource: 'payment_policy',
  summary: 'Delete a payment policy',
  description:
    'While a rate plan references the policy: 409 `errors.qc.payment_policy_in_use` with `rate_plan_ids` (move those plans first: PATCH rate_plans/{id} with another `payment_policy_id`). Event `payment_policy.deleted`.',
  errors: ['errors.qc.payment_policy_in_use'],
  errorFields: PolicyInUseFields,
  remove: deletePaymentPolicy,
});
