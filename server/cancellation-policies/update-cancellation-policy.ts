import { RecordParams } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CancellationPolicySchema, UpdateCancellationPolicyBody } from './model.ts';
import { updateCancellationPolicy } from './service.ts';
import { cancellationPolicyView } from './view.ts';

export const updateCancellationPolicyRoute = defineRoute({
  ...configOperation(
    'qc.cancellation_policies.update',
    'PATCH',
    '/properties/:property/cancellation_policies/:policy',
    'cancellation_policy',
    'Change a cancellation policy (partial)',
  ),
  description:
    'Only the fields present change (`data` is replaced as a whole list, checked by the create rules). Bookings already made keep the policy frozen in their snapshot. Editing a placeholder makes it an ordinary policy (`is_placeholder: false`). Event `cancellation_policy.updated`.',
  params: RecordParams('policy'),
  body: UpdateCancellationPolicyBody,
  response: okSchema(CancellationPolicySchema),
  async handle({ deps, principal, params, body }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const now = deps.clock.now();
    const row = await deps.db.tx((tx) => updateCancellationPolicy(tx, property, params.policy, body, now));
    return ok(cancellationPolicyView(row));
  },
});
