import { RecordParams } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PaymentPolicySchema, UpdatePaymentPolicyBody } from './model.ts';
import { updatePaymentPolicy } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const updatePaymentPolicyRoute = defineRoute({
  ...configOperation(
    'qc.payment_policies.update',
    'PATCH',
    '/properties/:property/payment_policies/:policy',
    'payment_policy',
    'Change a payment policy (partial)',
  ),
  description:
    'Only the fields present change; the merged terms follow the create rules. Editing a placeholder makes it an ordinary policy (`is_placeholder: false`). Event `payment_policy.updated`.',
  params: RecordParams('policy'),
  body: UpdatePaymentPolicyBody,
  response: okSchema(PaymentPolicySchema),
  async handle({ deps, principal, params, body }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const now = deps.clock.now();
    const row = await deps.db.tx((tx) => updatePaymentPolicy(tx, property, params.policy, body, now));
    return ok(paymentPolicyView(row));
  },
});
