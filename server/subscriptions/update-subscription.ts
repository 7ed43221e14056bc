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
  description: [
    'Only the fields present change, with the same rules as on create. The secret is untouched (use rotate-secret).',
    'The token must hold the catalogue `scope` of every event the subscription names once patched, also when only',
    '`url` changes (403 `errors.qc.insufficient_scope`); taking those events out needs no scope.',
  ].join(' '),
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
