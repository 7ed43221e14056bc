import { ownedShowRoute } from '../config-surfaces/owned-routes.ts';
import { PaymentPolicySchema } from './model.ts';
import { paymentPolicyView } from './view.ts';

export const showPaymentPolicy = ownedShowRoute({
  name: 'qc.payment_policies.show',
  path: '/properties/:property/payment_policies',
  param: 'policy',
  resource: 'payment_policy',
  table: 'payment_policies',
  summary: 'One payment policy',
  schema: PaymentPolicySchema,
  view: paymentPolicyView,
});
