import { t } from 'elysia';
import { Day } from '../core/http/day-schema.ts';
import { pagingQuery } from '../core/http/paging.ts';
import { REVIEW_CHANNELS } from './channels.ts';

export const ReviewParams = t.Object({ property: t.String(), review: t.String({ format: 'uuid' }) });

export const ReviewListQuery = t.Object({
  ...pagingQuery(),
  channel: t.Optional(t.String({ maxLength: 8 })),
  replied: t.Optional(t.Union([t.Literal('0'), t.Literal('1')])),
});

export const ReplyBody = t.Object({ text: t.String({ minLength: 1, maxLength: 5000 }) });

/** What a channel sends: the inbound webhook's `review` block and the operator API's body share it. */
export const IncomingReview = t.Object({
  channel_review_id: t.String({ minLength: 1, maxLength: 100 }),
  rating: t.Number({ minimum: 0, maximum: 100, description: "0 to rating_scale (the channel's scale when left out)" }),
  rating_scale: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
  title: t.Optional(t.String({ maxLength: 500 })),
  body: t.Optional(t.String({ maxLength: 20_000 })),
  reviewer_name: t.Optional(t.String({ maxLength: 200 })),
  language: t.Optional(t.String({ maxLength: 10 })),
  stayed_on: t.Optional(Day),
  booking_id: t.Optional(
    t.String({ maxLength: 100, description: 'external_booking_id or the channel reservation id' }),
  ),
  submitted_at: t.String({ format: 'date-time' }),
});

const DeliveryStatus = t.Union([t.Literal('pending'), t.Literal('sending'), t.Literal('sent'), t.Literal('failed')]);

export const ReviewSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  channel: t.String({ description: `source channel: ${Object.keys(REVIEW_CHANNELS).join(', ')}` }),
  channel_review_id: t.String(),
  replies_supported: t.Boolean(),
  booking_id: t.Nullable(t.String({ description: 'external_booking_id when the review matched a booking' })),
  rating: t.Number(),
  rating_scale: t.Integer(),
  title: t.String(),
  body: t.String(),
  reviewer_name: t.String(),
  language: t.Nullable(t.String()),
  stayed_on: t.Nullable(Day),
  submitted_at: t.String({ format: 'date-time' }),
  received_at: t.String({ format: 'date-time' }),
  reply: t.Nullable(
    t.Object({
      text: t.String(),
      replied_at: t.String({ format: 'date-time' }),
      delivery: t.Object({
        status: DeliveryStatus,
        attempts: t.Integer(),
        last_error: t.Nullable(t.String()),
        next_attempt_at: t.Nullable(t.String({ format: 'date-time' })),
        sent_at: t.Nullable(t.String({ format: 'date-time' })),
      }),
    }),
  ),
});
