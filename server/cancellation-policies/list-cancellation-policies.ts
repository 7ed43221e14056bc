import { ownedListRoute } from '../config-surfaces/owned-routes.ts';
import { CancellationPolicySchema } from './model.ts';
import { cancellationPolicyView } from './view.ts';

export const listCancellationPolicies = ownedListRoute({
  name: 'qc.cancellation_policies.list',
  path: '/properties/:property/cancellation_policies',
  resource: 'cancellation_policy',
  table: 'cancellation_policies',
  summary: 'Cancellation policies of a property, oldest first',
  description:
    'Includes the placeholder seeded by the first rate plan (no rules: free cancellation; `is_placeholder: true` until edited).',
  schema: CancellationPolicySchema,
  view: cancellationPolicyView,
});
