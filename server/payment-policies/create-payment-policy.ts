import { t } from 'elysia';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CreatePaymentPolicyBody, PaymentPolicySchema } from './model.ts';
import { createPaymentPolicy } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const createPaymentPolicyRoute = defineRoute({
  ...configOperation(
    'qc.payment_policies.create',
    'POST',
    '/properties/:property/payment_policies',
    'payment_policy',
    'Create a payment policy',
  ),
  description:
    '`num_days` (1..1000) is required for `af_res` and `be_arr`, `date` for `be_dat` (422 with the field path); a term the pay type does not use is answered null. `percent` is the share of the stay total due (default 100). Event `payment_policy.created`.',
  status: 201,
  params: t.Object({ property: t.String() }),
  body: CreatePaymentPolicyBody,
  response: okSchema(PaymentPolicySchema),
  async handle({ deps, principal, params, body }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    return ok(paymentPolicyView(await deps.db.tx((tx) => createPaymentPolicy(tx, property, body))));
  },
});
