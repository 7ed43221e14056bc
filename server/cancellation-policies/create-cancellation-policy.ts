import { t } from 'elysia';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CancellationPolicySchema, CreateCancellationPolicyBody } from './model.ts';
import { createCancellationPolicy } from './service.ts';
import { cancellationPolicyView } from './view.ts';

export const createCancellationPolicyRoute = defineRoute({
  ...configOperation(
    'qc.cancellation_policies.create',
    'POST',
    '/properties/:property/cancellation_policies',
    'cancellation_policy',
    'Create a cancellation policy',
  ),
  description:
    'Rules (`data[]`, at most 50) each need `c_type` (after_booking, days_before_arrival with `p_days`, after_date with `p_date`, no_show) and `p_type` (percent: `p_value` 0..100 of the total; nights: `p_value` whole nights at the average nightly price; amount: `p_value` in the booking currency); a missing term is 422 with its path (`data.2.p_days`). The highest matching charge applies, capped at the booking total; no matching rule means free. `name` defaults to the first `name_tr` value. Event `cancellation_policy.created`.',
  status: 201,
  params: t.Object({ property: t.String() }),
  body: CreateCancellationPolicyBody,
  response: okSchema(CancellationPolicySchema),
  async handle({ deps, principal, params, body }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    return ok(cancellationPolicyView(await deps.db.tx((tx) => createCancellationPolicy(tx, property, body))));
  },
});
