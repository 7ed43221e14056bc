import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { createFeedback } from './feedback.ts';
import { CreateFeedbackBody, FeedbackSchema, SCORE_CATEGORIES } from './model.ts';
import { feedbackView } from './view.ts';

export const createGuestFeedback = defineRoute({
  name: 'qc.guest_feedback.create',
  method: 'POST',
  path: '/properties/:property/guest_feedback',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'guest_feedback',
  summary: 'Record what a guest answered after a stay',
  tags: ['guest feedback'],
  description: [
    '`booking_id` (external_booking_id of a booking of this property; unknown: 422',
    '`errors.qc.guest_feedback_unknown_booking`), `overall_score` 1..10, optional `scores` per category',
    `(${SCORE_CATEGORIES.join(', ')}; each 1..10), \`comment\`, \`language\`, \`would_recommend\`, \`answered_at\``,
    '(default now). One answer per booking: a second is 409 `errors.qc.guest_feedback_exists` with `feedback_id`.',
  ].join(' '),
  params: PropertyParams,
  body: CreateFeedbackBody,
  status: 201,
  response: okSchema(FeedbackSchema),
  errors: ['errors.qc.guest_feedback_unknown_booking', 'errors.qc.guest_feedback_exists'],
  errorFields: {
    409: {
      feedback_id: t.String({
        format: 'uuid',
        description: "with errors.qc.guest_feedback_exists: the booking's feedback",
      }),
    },
  },
  handle: inProperty(async ({ deps, body, request }, property) => {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const row = await createFeedback(tx, property, {
        bookingId: body.booking_id,
        overallScore: body.overall_score,
        scores: body.scores as Record<string, number> | undefined,
        comment: body.comment,
        language: body.language,
        wouldRecommend: body.would_recommend,
        answeredAt: body.answered_at ? new Date(body.answered_at) : deps.clock.now(),
      });
      const answer = ok(feedbackView(row));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  }),
});
