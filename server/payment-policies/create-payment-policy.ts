import { ownedCreateRoute } from '../config-surfaces/owned-routes.ts';
import { CreatePaymentPolicyBody, PaymentPolicySchema } from './model.ts';
import { createPaymentPolicy } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const createPaymentPolicyRoute = ownedCreateRoute({
  name: 'qc.payment_policies.create',
  path: '/properties/:property/payment_policies',
  resource: 'payment_policy',
  summary: 'Create a payment policy',
  description:
    '`num_days` (1..1000) is required for `af_res` and `be_arr`, `date` for `be_dat` (422 with the field path); a term the pay type does not use is answered null. `percent` is the share of the stay total due (default 100). Event `payment_policy.created`.',
  body: CreatePaymentPolicyBody,
  schema: PaymentPolicySchema,
  create: createPaymentPolicy,
  view: paymentPolicyView,
});
