import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ReviewParams, ReviewSchema } from './model.ts';
import { findReview } from './reviews.ts';
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
  handle: inProperty(async ({ deps, params }, property) => {
    return ok(reviewView(await findReview(deps.db, property.id, params.review)));
  }),
});
