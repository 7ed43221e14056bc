import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery, SubscriptionSchema } from './model.ts';
import { listSubscriptions } from './service.ts';
import { subscriptionView } from './view.ts';

export const listSubscriptionsRoute = defineRoute({
  name: 'qc.subscriptions.list',
  method: 'GET',
  path: '/subscriptions',
  bucket: 'reads',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'List subscriptions',
  query: ListQuery,
  response: okSchema(t.Object({ subscriptions: t.Array(SubscriptionSchema), meta: MetaSchema })),
  async handle({ deps, principal, query }) {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listSubscriptions(deps.db, principal, page, perPage);
    return ok({ subscriptions: rows.map(subscriptionView), meta: pageMeta(total, page, perPage) });
  },
});
