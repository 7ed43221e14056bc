import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { FeedbackParams, FeedbackSchema } from './model.ts';
import { pathFeedback } from './path-feedback.ts';
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
  pathRecord: pathFeedback,
  handle: (_input, feedback) => ok(feedbackView(feedback)),
});
