import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { findFeedback } from './feedback.ts';
import { FeedbackParams, FeedbackSchema } from './model.ts';
import { feedbackView } from './view.ts';

export const showGuestFeedback = defineRoute({
  name: 'qc.guest_feedback.show',
  method: 'GET',
  path: '/properties/:property/guest_feedback/:feedback',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'guest_feedback',
  summary: 'One guest feedback answer',
  tags: ['guest feedback'],
  params: FeedbackParams,
  response: okSchema(FeedbackSchema),
  handle: inProperty(async ({ deps, params }, property) => {
    return ok(feedbackView(await findFeedback(deps.db, property.id, params.feedback)));
  }),
});
