import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SubscriptionParams, SubscriptionSchema } from './model.ts';
import { pathSubscriptionToWrite } from './path-subscription.ts';
import { enableSubscription } from './service.ts';
import { subscriptionView } from './view.ts';

export const enableSubscriptionRoute = defineRoute({
  name: 'qc.subscriptions.enable',
  method: 'POST',
  path: '/subscriptions/:subscription/enable',
  bucket: 'config-writes',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'Re-enable a disabled subscription',
  description:
    'A subscription is disabled after more than 72 hours of failed deliveries with no success. Enabling clears the streak and resumes its outstanding deliveries; an active subscription is answered as is.',
  params: SubscriptionParams,
  body: EmptyBody,
  response: okSchema(SubscriptionSchema),
  errors: ['errors.not_found'],
  pathRecord: pathSubscriptionToWrite,
  async handle({ deps, principal, params }) {
    return ok(subscriptionView(await enableSubscription(deps, principal, params.subscription)));
  },
});
