import { createFeedback } from '../guest-feedback/feedback.ts';
import type { DemoContext } from './demo.ts';

/** Guest feedback on the demo's first booking (runs after the bookings step). Output: `demo.guest_feedback_id`. */
export async function guestFeedbackDemoStep(ctx: DemoContext): Promise<void> {
  const booking = (ctx.demo.bookings as { external_booking_id: string }[] | undefined)?.[0];
  if (!booking) throw new Error('guest feedback demo step needs the bookings step first');
  const feedback = await ctx.deps.db.tx((tx) =>
    createFeedback(tx, ctx.live, {
      bookingId: booking.external_booking_id,
      overallScore: 9,
      scores: { cleanliness: 10, staff: 9, location: 10, value_for_money: 8 },
      comment: 'Lovely sea view and a great breakfast.',
      language: 'en',
      wouldRecommend: true,
      answeredAt: ctx.deps.clock.now(),
    }),
  );
  ctx.demo.guest_feedback_id = feedback.external_id;
}
