import { t } from 'elysia';
import { pagingQuery } from '../core/http/paging.ts';

const Url = t.String({ minLength: 1, maxLength: 2048 });
const EventName = t.String({ minLength: 1, maxLength: 100 });
const PropertyRef = t.String({ minLength: 1, maxLength: 100 });

/** Spec 2.8: `url` or `target_url`, `event_types[]` or `event`, `property_ids[]` (external ids or partner codes). */
const fields = {
  url: t.Optional(Url),
  target_url: t.Optional(Url),
  event_types: t.Optional(t.Array(EventName, { minItems: 1, maxItems: 100 })),
  event: t.Optional(EventName),
  property_ids: t.Optional(t.Array(PropertyRef, { maxItems: 1000 })),
};

export const CreateSubscriptionBody = t.Object(fields);
export const UpdateSubscriptionBody = t.Object(fields);
export type SubscriptionInput = typeof CreateSubscriptionBody.static;

export const SubscriptionParams = t.Object({ subscription: t.String() });

export const SubscriptionSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  url: t.String(),
  event_types: t.Array(t.String()),
  property_ids: t.Array(t.String({ format: 'uuid' }), {
    description: 'empty with all_properties: every property of the account',
  }),
  all_properties: t.Boolean(),
  status: t.Union([t.Literal('active'), t.Literal('disabled')]),
  disabled_at: t.Nullable(t.String({ format: 'date-time' })),
  disabled_reason: t.Nullable(t.String()),
  failing_since: t.Nullable(t.String({ format: 'date-time' })),
  last_success_at: t.Nullable(t.String({ format: 'date-time' })),
  secret_rotated_at: t.Nullable(t.String({ format: 'date-time' })),
  previous_secret_expires_at: t.Nullable(t.String({ format: 'date-time' })),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
});

export const ListQuery = t.Object({
  ...pagingQuery(),
});

/** Create and rotate answer the signing secret this once. */
export const SubscriptionWithSecretSchema = t.Composite([SubscriptionSchema, t.Object({ secret: t.String() })]);
