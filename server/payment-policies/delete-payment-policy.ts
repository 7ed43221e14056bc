import { DeletedSchema, RecordParams } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { deletePaymentPolicy } from './service.ts';

export const deletePaymentPolicyRoute = defineRoute({
  ...configOperation(
    'qc.payment_policies.delete',
    'DELETE',
    '/properties/:property/payment_policies/:policy',
    'payment_policy',
    'Delete a payment policy',
  ),
  description:
    'While a rate plan references the policy: 409 `errors.qc.payment_policy_in_use` with `rate_plan_ids` (point those plans elsewhere first). Event `payment_policy.deleted`.',
  params: RecordParams('policy'),
  response: okSchema(DeletedSchema),
  errors: ['errors.qc.payment_policy_in_use'],
  async handle({ deps, principal, params }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const now = deps.clock.now();
    const id = await deps.db.tx((tx) => deletePaymentPolicy(tx, property, params.policy, now));
    return ok({ id, deleted: true as const });
  },
});
