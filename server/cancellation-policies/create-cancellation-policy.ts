import { ownedCreateRoute } from '../config-surfaces/owned-routes.ts';
import { CancellationPolicySchema, CreateCancellationPolicyBody } from './model.ts';
import { createCancellationPolicy } from './service.ts';
import { cancellationPolicyView } from './view.ts';

export const createCancellationPolicyRoute = ownedCreateRoute({
  name: 'qc.cancellation_policies.create',
  path: '/properties/:property/cancellation_policies',
  resource: 'cancellation_policy',
  summary: 'Create a cancellation policy',
  description:
    'Rules (`data[]`, at most 50) each need `c_type` (after_booking, days_before_arrival with `p_days`, after_date with `p_date`, no_show) and `p_type` (percent: `p_value` 0..100 of the total; nights: `p_value` whole nights at the average nightly price; amount: `p_value` in the booking currency); a missing term is 422 with its path (`data.2.p_days`). The highest matching charge applies, capped at the booking total; no matching rule means free. `name` defaults to the first `name_tr` value (one of them is needed: 422 on `name_tr`); without `name_tr` (or with `{}`) the policy stores and answers `{"en-GB": <name>}`. Event `cancellation_policy.created`.',
  body: CreateCancellationPolicyBody,
  schema: CancellationPolicySchema,
  create: createCancellationPolicy,
  view: cancellationPolicyView,
});
