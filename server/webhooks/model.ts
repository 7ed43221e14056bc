import { t } from 'elysia';
import { pagingQuery } from '../core/http/paging.ts';
import { DELIVERY_STATUSES } from './delivery-log.ts';

const Iso = t.String({ format: 'date-time' });
const Uuid = t.String({ format: 'uuid' });

/** A delivery as the log shows it (delivery-log.ts deliveryView). */
export const DeliverySchema = t.Object({
  id: Uuid,
  subscription_id: Uuid,
  event_id: t.String(),
  event_type: t.String(),
  status: t.Union(DELIVERY_STATUSES.map((s) => t.Literal(s))),
  attempts: t.Integer(),
  created_at: Iso,
  first_attempt_at: t.Nullable(Iso),
  last_attempt_at: t.Nullable(Iso),
  next_attempt_at: t.Nullable(Iso),
  delivered_at: t.Nullable(Iso),
  last_response_status: t.Nullable(t.Integer()),
  last_error: t.Nullable(t.String()),
  redelivery_of: t.Nullable(Uuid),
  payload: t.Unknown(),
});

/** One subscription's delivery health (health.ts subscriptionHealth). */
export const SubscriptionHealthSchema = t.Object({
  id: Uuid,
  url: t.String(),
  status: t.Union([t.Literal('active'), t.Literal('disabled')]),
  success_rate: t.Nullable(t.Number({ minimum: 0, maximum: 1 })),
  attempts_24h: t.Integer(),
  successes_24h: t.Integer(),
  last_attempt_at: t.Nullable(Iso),
  last_attempt: t.Nullable(
    t.Object({
      at: t.Nullable(Iso),
      success: t.Nullable(t.Boolean()),
      response_status: t.Nullable(t.Integer()),
      error: t.Nullable(t.String()),
    }),
  ),
  next_retry_at: t.Nullable(Iso),
  outstanding_deliveries: t.Integer(),
  failing_since: t.Nullable(Iso),
  disabled_at: t.Nullable(Iso),
  last_success_at: t.Nullable(Iso),
  withheld: t.Array(
    t.Object({
      event_type: t.String(),
      scope: t.String({ description: 'the scope the event needs (GET /event-catalog `scope`)' }),
      reason: t.Union([t.Literal('insufficient_scope'), t.Literal('credential_revoked')]),
    }),
    {
      description:
        'event types of the subscription that are not sent: its creating credential lacks the scope, or is revoked',
    },
  ),
});

/** An entry of GET /event-catalog (event-catalog.ts eventCatalog). */
export const EventTypeSchema = t.Object({
  type: t.String(),
  group: t.String(),
  description: t.String(),
  alias_of: t.Nullable(t.String()),
  scope: t.Nullable(
    t.String({ description: 'the scope a credential needs beside subscriptions.manage to subscribe to it' }),
  ),
  data_schema: t.Record(t.String(), t.Unknown(), { description: 'JSON Schema of the event `data`' }),
  example: t.Record(t.String(), t.Unknown()),
});

export const LogQuery = t.Object({
  // Free text, checked by parseStatus: an unknown status is errors.qc.deliveries.unknown_status, not a generic 422.
  status: t.Optional(t.String()),
  subscription_id: t.Optional(t.String()),
  ...pagingQuery(),
});

export const STATUS_DOC = `\`status\` filters the log: one of ${DELIVERY_STATUSES.join(', ')} (else 422 \`errors.qc.deliveries.unknown_status\`).`;
