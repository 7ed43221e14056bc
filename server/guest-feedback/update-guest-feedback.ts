import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { updateFeedback } from './feedback.ts';
import { FeedbackParams, FeedbackSchema, UpdateFeedbackBody } from './model.ts';
import { pathFeedback } from './path-feedback.ts';
import { feedbackView } from './view.ts';

export const updateGuestFeedback = defineRoute({
  name: 'qc.guest_feedback.update',
  method: 'PATCH',
  path: '/properties/:property/guest_feedback/:feedback',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'guest_feedback',
  summary: 'Correct a guest feedback answer (partial)',
  tags: ['guest feedback'],
  description:
    'Only the fields present change; `scores` merges category by category (null removes a category). The booking cannot change.',
  params: FeedbackParams,
  body: UpdateFeedbackBody,
  response: okSchema(FeedbackSchema),
  pathRecord: pathFeedback,
  handle: inProperty(async ({ deps, params, body }, property) => {
    const row = await deps.db.tx((tx) =>
      updateFeedback(tx, property, params.feedback, {
        ...body,
        scores: body.scores as Record<string, number | null> | undefined,
      }),
    );
    return ok(feedbackView(row));
  }),
});
