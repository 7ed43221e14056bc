import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ReplyBody, ReviewParams, ReviewSchema } from './model.ts';
import { pathReview } from './path-review.ts';
import { replyToReview } from './reply.ts';
import type { ReviewRow } from './reviews.ts';
import { reviewView } from './view.ts';

export const replyReview = defineRoute({
  name: 'qc.reviews.reply',
  method: 'POST',
  path: '/properties/:property/reviews/:review/reply',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'review',
  summary: 'Reply to a review, once',
  tags: ['reviews'],
  description: [
    'Answers 201 with the review, its `reply` and `reply.delivery.status` `pending`: the reply is sent to the',
    'channel in the background and retried (30 s, 2 min, 10 min, 30 min, then hourly, 10 attempts) until it is',
    '`sent` or `failed`; read the review to follow it. A second reply: 422 `errors.qc.review_already_replied`;',
    'a channel that takes no replies (see `replies_supported`): 422 `errors.qc.review_replies_not_supported`.',
  ].join(' '),
  params: ReviewParams,
  body: ReplyBody,
  status: 201,
  response: okSchema(ReviewSchema),
  errors: ['errors.qc.review_already_replied', 'errors.qc.review_replies_not_supported'],
  // Checked before the body; the reply reads and locks the review again in its transaction.
  pathRecord: pathReview,
  handle: inProperty(async ({ deps, principal, params, body, request }, property) => {
    // The reply is made once (422 review_already_replied after): a retry with its key answers the reply it made.
    const kept = keptCreate(request, deps.clock.now());
    const answer = (row: ReviewRow) => ok(reviewView(row));
    return answer(
      await replyToReview(deps, principal, property, params.review, body.text, (tx, row) =>
        kept.keep(tx, 201, answer(row)),
      ),
    );
  }),
});
