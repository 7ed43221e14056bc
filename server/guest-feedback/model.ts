import type { TSchema } from '@sinclair/typebox';
import { t } from 'elysia';
import { Day } from '../core/http/day-schema.ts';
import { pagingQuery } from '../core/http/paging.ts';

const Score = t.Integer({ minimum: 1, maximum: 10 });

/** The categories a post-stay questionnaire scores, each 1..10 (the scale OTAs show). */
export const SCORE_CATEGORIES = [
  'cleanliness',
  'comfort',
  'location',
  'facilities',
  'staff',
  'value_for_money',
] as const;

const scoresOf = (score: TSchema) =>
  t.Partial(t.Object(Object.fromEntries(SCORE_CATEGORIES.map((c) => [c, score])), { additionalProperties: false }));
const Scores = scoresOf(Score);
/** A PATCH's scores: every category is optional, so `null` removes one (README, PATCH: null clears a nullable field). */
const ScoreChanges = scoresOf(t.Nullable(Score));

export const FeedbackParams = t.Object({ property: t.String(), feedback: t.String({ format: 'uuid' }) });

export const CreateFeedbackBody = t.Object({
  booking_id: t.String({
    minLength: 1,
    maxLength: 100,
    description: 'external_booking_id of a booking of this property',
  }),
  overall_score: Score,
  scores: t.Optional(Scores),
  comment: t.Optional(t.String({ maxLength: 5000 })),
  language: t.Optional(t.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' })),
  would_recommend: t.Optional(t.Nullable(t.Boolean())),
  answered_at: t.Optional(t.String({ format: 'date-time', description: 'default: now' })),
});

export const UpdateFeedbackBody = t.Object({
  overall_score: t.Optional(Score),
  scores: t.Optional(ScoreChanges),
  comment: t.Optional(t.String({ maxLength: 5000 })),
  language: t.Optional(t.Nullable(t.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' }))),
  would_recommend: t.Optional(t.Nullable(t.Boolean())),
});

export const FeedbackListQuery = t.Object({
  ...pagingQuery(),
  booking_id: t.Optional(t.String({ maxLength: 100 })),
});

export const FeedbackSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  booking_id: t.String({ description: 'external_booking_id' }),
  source_channel: t.String(),
  checkin_date: Day,
  checkout_date: Day,
  guest_first_name: t.String(),
  guest_last_name: t.String({ description: 'masked to an initial, like every guest field' }),
  overall_score: t.Integer(),
  scores: t.Record(t.String(), t.Integer()),
  comment: t.String(),
  language: t.Nullable(t.String()),
  would_recommend: t.Nullable(t.Boolean()),
  answered_at: t.String({ format: 'date-time' }),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
});
