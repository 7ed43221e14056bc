import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { propertyRowOf } from '../properties/insert-property.ts';
import { receiveReview } from '../reviews/intake.ts';
import { IncomingReview } from '../reviews/model.ts';
import { reviewView } from '../reviews/view.ts';

/**
 * POST /ops/reviews: the operator's intake of a review (a channel without a webhook, a correction, the demo).
 * Same upsert as the inbound channel webhook's `review` payloads.
 */
export const receiveReviewOp = defineOperatorRoute({
  name: 'ops.reviews.create',
  surface: 'ops',
  method: 'POST',
  path: '/reviews',
  summary: 'Receive a review from a channel (operator intake)',
  body: t.Composite([
    t.Object({
      property_id: t.String({ description: 'internal id or external id' }),
      channel: t.String({ minLength: 1, maxLength: 8 }),
    }),
    IncomingReview,
  ]),
  async handle({ deps, body }) {
    const property = await propertyRowOf(deps, body.property_id);
    const { channel, property_id: _, ...review } = body;
    const received = await receiveReview(deps, property, channel, review);
    return ok({ ...reviewView(received.review), outcome: received.outcome });
  },
});
