import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { HEALTH_LOG_SIZE, webhookHealth } from './health.ts';
import { DeliverySchema, STATUS_DOC, SubscriptionHealthSchema } from './model.ts';

export const showWebhookHealth = defineRoute({
  name: 'qc.webhook_health.show',
  method: 'GET',
  path: '/health/webhooks',
  scope: 'subscriptions.manage',
  bucket: 'reads',
  resource: 'delivery',
  summary: 'Per-subscription delivery health',
  tags: ['webhooks'],
  description: `Per subscription: \`success_rate\` over the attempts of the last 24 hours (null without attempts), the last attempt, \`next_retry_at\` (the earliest failed delivery's next attempt, never before now: a delivery past its time waits to be sent; null while the subscription is disabled), outstanding deliveries, and \`withheld\`: the event types not sent because the creating credential lacks their catalogue \`scope\` or was revoked. \`deliveries\` holds the ${HEALTH_LOG_SIZE} newest deliveries; ${STATUS_DOC} GET /deliveries pages through the whole log.`,
  query: t.Object({ status: t.Optional(t.String()) }),
  response: okSchema(
    t.Object({ subscriptions: t.Array(SubscriptionHealthSchema), deliveries: t.Array(DeliverySchema) }),
  ),
  errors: ['errors.qc.deliveries.unknown_status'],
  async handle({ deps, principal, query }) {
    return ok(await webhookHealth(deps, principal, query.status));
  },
});
