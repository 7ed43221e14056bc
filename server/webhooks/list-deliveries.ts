import { t } from 'elysia';
import { MetaSchema, ok, okSchema } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { deliveryLogPage } from './delivery-log.ts';
import { DeliverySchema, LogQuery, STATUS_DOC } from './model.ts';

export const listDeliveriesRoute = defineRoute({
  name: 'qc.deliveries.list',
  method: 'GET',
  path: '/deliveries',
  scope: 'subscriptions.manage',
  bucket: 'reads',
  resource: 'delivery',
  summary: 'Delivery log, filterable by status',
  tags: ['webhooks'],
  description: `Newest first. Deliveries of events whose catalogue \`scope\` the token lacks (booking events without bookings.read) are left out. ${STATUS_DOC}`,
  query: LogQuery,
  response: okSchema(t.Object({ deliveries: t.Array(DeliverySchema), meta: MetaSchema })),
  errors: ['errors.not_found', 'errors.qc.deliveries.unknown_status'],
  async handle({ deps, principal, query }) {
    const filter = { status: query.status, subscription: query.subscription_id };
    const { page, perPage } = pageOf(query);
    return ok(await deliveryLogPage(deps, principal, filter, page, perPage));
  },
});
