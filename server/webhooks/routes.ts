import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { accepted, ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { routes } from '../core/routes/route-table.ts';
import { findSubscription } from '../subscriptions/service.ts';
import { DELIVERY_STATUSES, deliveryView, listDeliveries, parseStatus, redeliver } from './delivery-log.ts';
import { EVENT_CATALOG } from './event-catalog.ts';
import { subscriptionHealth } from './health.ts';

const tags = ['webhooks'];
const PER_PAGE = 50;
const HEALTH_LOG_SIZE = 50;
// Free text, checked by parseStatus: an unknown status is errors.qc.deliveries.unknown_status, not a generic 422.
const LogQuery = t.Object({
  status: t.Optional(t.String()),
  subscription_id: t.Optional(t.String()),
  page: t.Optional(t.Numeric({ minimum: 1 })),
  per_page: t.Optional(t.Numeric({ minimum: 1, maximum: 200 })),
});
const statusDoc = `\`status\` filters the log: one of ${DELIVERY_STATUSES.join(', ')} (else 422 \`errors.qc.deliveries.unknown_status\`).`;

export function registerWebhookRoutes(app: QcApp, deps: Deps) {
  app.get(
    routes.eventCatalog.path,
    () => {
      const events = EVENT_CATALOG.map((e) => ({
        type: e.type,
        group: e.group,
        description: e.description,
        alias_of: e.aliasOf ?? null,
        data_schema: e.data,
        example: e.example,
      }));
      return ok({ events, meta: pageMeta(events.length, 1, events.length) });
    },
    {
      qc: routes.eventCatalog,
      detail: {
        summary: routes.eventCatalog.summary,
        tags,
        description:
          'Every event the service emits, with the JSON Schema of its `data` and an example. An entry with `alias_of` is a subscription name for that event: it delivers the same single webhook under the alias name.',
      },
    },
  );
  app.get(
    routes.webhookHealth.path,
    async ({ principal, query }) => {
      const status = parseStatus(query.status);
      const subscriptions = await subscriptionHealth(deps, principal);
      const log = await listDeliveries(deps, principal, { status }, 1, HEALTH_LOG_SIZE);
      return ok({ subscriptions, deliveries: log.rows.map(deliveryView) });
    },
    {
      qc: routes.webhookHealth,
      query: t.Object({ status: t.Optional(t.String()) }),
      detail: {
        summary: routes.webhookHealth.summary,
        tags,
        description: `Per subscription: \`success_rate\` over the attempts of the last 24 hours (null without attempts), the last attempt, \`next_retry_at\`, outstanding deliveries. \`deliveries\` holds the ${HEALTH_LOG_SIZE} newest deliveries; ${statusDoc} GET /deliveries pages through the whole log.`,
      },
    },
  );
  app.get(
    routes.deliveriesList.path,
    async ({ principal, query }) => {
      const status = parseStatus(query.status);
      const subscriptionIds = query.subscription_id
        ? [(await findSubscription(deps.db, principal, query.subscription_id)).id]
        : undefined;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? PER_PAGE;
      const { rows, total } = await listDeliveries(deps, principal, { status, subscriptionIds }, page, perPage);
      return ok({ deliveries: rows.map(deliveryView), meta: pageMeta(total, page, perPage) });
    },
    {
      qc: routes.deliveriesList,
      query: LogQuery,
      detail: { summary: routes.deliveriesList.summary, tags, description: `Newest first. ${statusDoc}` },
    },
  );
  app.post(
    routes.deliveriesRedeliver.path,
    async ({ principal, params, set }) => {
      const row = await redeliver(deps, principal, params.delivery);
      set.status = 202;
      return accepted(deliveryView(row));
    },
    {
      qc: routes.deliveriesRedeliver,
      params: t.Object({ delivery: t.String() }),
      detail: {
        summary: routes.deliveriesRedeliver.summary,
        tags,
        description: [
          'Answers 202 with the new delivery: same event body, new delivery id, attempts from 1. Any delivery of the',
          'last 90 days qualifies (else 422 `errors.qc.deliveries.redelivery_window_passed`); a disabled',
          'subscription must be enabled first (409 `errors.qc.subscription.disabled`).',
        ].join(' '),
      },
    },
  );
}
