import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { readSubscriptionInput } from './input.ts';
import { SubscriptionParams, SubscriptionSchema, UpdateSubscriptionBody } from './model.ts';
import { pathSubscriptionToWrite } from './path-subscription.ts';
import { updateSubscription } from './service.ts';
import { subscriptionView } from './view.ts';

export const updateSubscriptionRoute = defineRoute({
  name: 'qc.subscriptions.update',
  method: 'PATCH',
  path: '/subscriptions/:subscription',
  bucket: 'config-writes',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'Update a subscription',
  description:
    'Only the fields present change, with the same rules as on create. The secret is untouched (use rotate-secret).',
  params: SubscriptionParams,
  body: UpdateSubscriptionBody,
  response: okSchema(SubscriptionSchema),
  errors: ['errors.not_found', 'errors.qc.subscription.unknown_property'],
  pathRecord: pathSubscriptionToWrite,
  async handle({ deps, principal, params, body }) {
    const input = await readSubscriptionInput(deps, principal, body, 'update');
    return ok(subscriptionView(await updateSubscription(deps, principal, params.subscription, input)));
  },
});
