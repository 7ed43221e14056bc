import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SubscriptionParams, SubscriptionWithSecretSchema } from './model.ts';
import { pathSubscriptionToWrite } from './path-subscription.ts';
import { rotateSecret } from './service.ts';
import { subscriptionView } from './view.ts';

export const rotateSubscriptionSecret = defineRoute({
  name: 'qc.subscriptions.rotate_secret',
  method: 'POST',
  path: '/subscriptions/:subscription/rotate-secret',
  bucket: 'config-writes',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'Rotate the signing secret',
  description: [
    'Answers the new `secret` once. Deliveries made from now on are signed with it. Retries of deliveries made',
    'before the rotation stay signed with the previous secret until `previous_secret_expires_at` (24 hours), then',
    'with the new one: accept both secrets in your receiver for those 24 hours. Like the first one, the signing key',
    'is the literal `whsec_...` string, prefix included.',
  ].join(' '),
  params: SubscriptionParams,
  body: EmptyBody,
  response: okSchema(SubscriptionWithSecretSchema),
  errors: ['errors.not_found'],
  pathRecord: pathSubscriptionToWrite,
  async handle({ deps, principal, params }) {
    const { row, secret } = await rotateSecret(deps, principal, params.subscription);
    return ok({ ...subscriptionView(row), secret });
  },
});
