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
    'While a rate plan references the policy: 409 `errors.qc.payment_policy_in_use` with `rate_plan_ids` (point those plans elsewhere first). Event `payment_policy.deleted`.',
  errors: ['errors.qc.payment_policy_in_use'],
  remove: deletePaymentPolicy,
});
