import { DeletedSchema, RecordParams } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { deleteCancellationPolicy } from './service.ts';

export const deleteCancellationPolicyRoute = defineRoute({
  ...configOperation(
    'qc.cancellation_policies.delete',
    'DELETE',
    '/properties/:property/cancellation_policies/:policy',
    'cancellation_policy',
    'Delete a cancellation policy',
  ),
  description:
    'While a rate plan references the policy: 409 `errors.qc.cancellation_policy_in_use` with `rate_plan_ids` (point those plans elsewhere first). Event `cancellation_policy.deleted`.',
  params: RecordParams('policy'),
  response: okSchema(DeletedSchema),
  errors: ['errors.qc.cancellation_policy_in_use'],
  async handle({ deps, principal, params }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const now = deps.clock.now();
    const id = await deps.db.tx((tx) => deleteCancellationPolicy(tx, property, params.policy, now));
    return ok({ id, deleted: true as const });
  },
});
