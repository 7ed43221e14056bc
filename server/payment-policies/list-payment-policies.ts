import { ownedListRoute } from '../config-surfaces/owned-routes.ts';
import { PaymentPolicySchema } from './model.ts';
import { paymentPolicyView } from './view.ts';

export const listPaymentPolicies = ownedListRoute({
  name: 'qc.payment_policies.list',
  path: '/properties/:property/payment_policies',
  resource: 'payment_policy',
  table: 'payment_policies',
  summary: 'Payment policies of a property, oldest first',
  description: 'Includes the placeholder seeded by the first rate plan (`is_placeholder: true` until edited).',
  schema: PaymentPolicySchema,
  view: paymentPolicyView,
});
