import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SubscriptionParams, SubscriptionSchema } from './model.ts';
import { findSubscription } from './service.ts';
import { subscriptionView } from './view.ts';

export const showSubscription = defineRoute({
  name: 'qc.subscriptions.show',
  method: 'GET',
  path: '/subscriptions/:subscription',
  bucket: 'reads',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'One subscription',
  params: SubscriptionParams,
  response: okSchema(SubscriptionSchema),
  errors: ['errors.not_found'],
  async handle({ deps, principal, params }) {
    return ok(subscriptionView(await findSubscription(deps.db, principal, params.subscription)));
  },
});
