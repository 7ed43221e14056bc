import { ownedUpdateRoute } from '../config-surfaces/owned-routes.ts';
import { PaymentPolicySchema, UpdatePaymentPolicyBody } from './model.ts';
import { updatePaymentPolicy } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const updatePaymentPolicyRoute = ownedUpdateRoute({
  name: 'qc.payment_policies.update',
  path: '/properties/:property/payment_policies',
  table: 'payment_policies',
  param: 'policy',
  resource: 'payment_policy',
  summary: 'Change a payment policy (partial)',
  description:
    'Only the fields present change; the merged terms follow the create rules. Editing a placeholder makes it an ordinary policy (`is_placeholder: false`). Event `payment_policy.updated` when the record changed (a PATCH that changes nothing writes nothing). Renamed without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`) follows the new name; one you set is kept.',
  body: UpdatePaymentPolicyBody,
  schema: PaymentPolicySchema,
  update: updatePaymentPolicy,
  view: paymentPolicyView,
});
