import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ReviewParams, ReviewSchema } from './model.ts';
import { pathReview } from './path-review.ts';
import { reviewView } from './view.ts';

export const showReview = defineRoute({
  name: 'qc.reviews.show',
  method: 'GET',
  path: '/properties/:property/reviews/:review',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'review',
  summary: 'One review, with its reply and the reply delivery status',
  tags: ['reviews'],
  params: ReviewParams,
  response: okSchema(ReviewSchema),
  pathRecord: pathReview,
  handle: (_input, review) => ok(reviewView(review)),
});
