import { ownedShowRoute } from '../config-surfaces/owned-routes.ts';
import { CancellationPolicySchema } from './model.ts';
import { cancellationPolicyView } from './view.ts';

export const showCancellationPolicy = ownedShowRoute({
  name: 'qc.cancellation_policies.show',
  path: '/properties/:property/cancellation_policies',
  param: 'policy',
  resource: 'cancellation_policy',
  table: 'cancellation_policies',
  summary: 'One cancellation policy',
  schema: CancellationPolicySchema,
  view: cancellationPolicyView,
});
