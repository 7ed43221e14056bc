import { receiveReview } from '../reviews/intake.ts';
import type { DemoContext } from './demo.ts';

/** One Booking.com review on the live property, not yet replied to (try the reply). Output: `demo.review_id`. */
export async function reviewsDemoStep(ctx: DemoContext): Promise<void> {
  const { review } = await receiveReview(ctx.deps, ctx.live, 'BDC', {
    channel_review_id: `BDC-REVIEW-${ctx.live.id}`,
    rating: 9.2,
    title: 'Perfect weekend by the sea',
    body: 'Friendly staff, spotless room, and the breakfast terrace is a dream.',
    reviewer_name: 'Marta',
    language: 'en',
    submitted_at: ctx.deps.clock.now().toISOString(),
  });
  ctx.demo.review_id = review.external_id;
}
