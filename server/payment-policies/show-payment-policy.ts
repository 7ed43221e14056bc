import { RecordParams } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { findOwned } from '../config-surfaces/owned-records.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PaymentPolicySchema } from './model.ts';
import type { PaymentPolicyRow } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const showPaymentPolicy = defineRoute({
  ...configOperation(
    'qc.payment_policies.show',
    'GET',
    '/properties/:property/payment_policies/:policy',
    'payment_policy',
    'One payment policy',
  ),
  params: RecordParams('policy'),
  response: okSchema(PaymentPolicySchema),
  async handle({ deps, principal, params }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const row = await findOwned<PaymentPolicyRow>(deps.db, 'payment_policies', property.id, params.policy);
    return ok(paymentPolicyView(row));
  },
});
