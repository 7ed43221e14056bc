import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SubscriptionParams, SubscriptionSchema } from './model.ts';
import { pathSubscription } from './path-subscription.ts';
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
  pathRecord: pathSubscription,
  handle(_, subscription) {
    return ok(subscriptionView(subscription));
  },
});
