import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SubscriptionParams } from './model.ts';
import { pathSubscriptionToWrite } from './path-subscription.ts';
import { deleteSubscription } from './service.ts';

export const deleteSubscriptionRoute = defineRoute({
  name: 'qc.subscriptions.delete',
  method: 'DELETE',
  path: '/subscriptions/:subscription',
  bucket: 'config-writes',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'Delete a subscription',
  description: 'Outstanding deliveries become `dead`; the subscription and its delivery log are gone from the API.',
  params: SubscriptionParams,
  body: EmptyBody,
  response: okSchema(t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true) })),
  errors: ['errors.not_found'],
  pathRecord: pathSubscriptionToWrite,
  async handle({ deps, principal, params }) {
    const row = await deleteSubscription(deps, principal, params.subscription);
    return ok({ id: row.external_id, deleted: true as const });
  },
});
