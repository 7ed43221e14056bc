import { isReviewChannel, REVIEW_CHANNELS } from './channels.ts';
import type { ReviewRow } from './reviews.ts';

export function reviewView(r: ReviewRow) {
  return {
    id: r.external_id,
    channel: r.channel,
    channel_review_id: r.channel_review_id,
    replies_supported: isReviewChannel(r.channel) && REVIEW_CHANNELS[r.channel].takesReplies,
    booking_id: r.external_booking_id,
    rating: r.rating,
    rating_scale: r.rating_scale,
    title: r.title,
    body: r.body,
    reviewer_name: r.reviewer_name,
    language: r.language,
    stayed_on: r.stayed_on,
    submitted_at: r.submitted_at.toISOString(),
    received_at: r.received_at.toISOString(),
    reply:
      r.reply_text === null || r.replied_at === null
        ? null
        : {
            text: r.reply_text,
            replied_at: r.replied_at.toISOString(),
            delivery: {
              status: r.delivery_status ?? 'pending',
              attempts: r.delivery_attempts ?? 0,
              last_error: r.delivery_last_error,
              next_attempt_at:
                r.delivery_status === 'pending' ? (r.delivery_next_attempt_at?.toISOString() ?? null) : null,
              sent_at: r.delivery_sent_at?.toISOString() ?? null,
            },
          },
  };
}
