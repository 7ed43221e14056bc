import { ownedUpdateRoute } from '../config-surfaces/owned-routes.ts';
import { CancellationPolicySchema, UpdateCancellationPolicyBody } from './model.ts';
import { updateCancellationPolicy } from './service.ts';
import { cancellationPolicyView } from './view.ts';

export const updateCancellationPolicyRoute = ownedUpdateRoute({
  name: 'qc.cancellation_policies.update',
  path: '/properties/:property/cancellation_policies',
  table: 'cancellation_policies',
  param: 'policy',
  resource: 'cancellation_policy',
  summary: 'Change a cancellation policy (partial)',
  description:
    'Only the fields present change (`data` is replaced as a whole list, checked by the create rules). Bookings already made keep the policy frozen in their snapshot. Editing a placeholder makes it an ordinary policy (`is_placeholder: false`). Event `cancellation_policy.updated` when the record changed (a PATCH that changes nothing writes nothing). Renamed without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`) follows the new name; one you set is kept.',
  body: UpdateCancellationPolicyBody,
  schema: CancellationPolicySchema,
  update: updateCancellationPolicy,
  view: cancellationPolicyView,
});
