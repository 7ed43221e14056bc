import { maskLastName } from '../core/guest-masking.ts';
import type { FeedbackRow } from './feedback.ts';

export function feedbackView(r: FeedbackRow) {
  return {
    id: r.external_id,
    booking_id: r.external_booking_id,
    source_channel: r.source_channel,
    checkin_date: r.checkin_date,
    checkout_date: r.checkout_date,
    guest_first_name: r.guest_first_name,
    guest_last_name: maskLastName(r.guest_last_name),
    overall_score: r.overall_score,
    scores: r.scores,
    comment: r.comment,
    language: r.language,
    would_recommend: r.would_recommend,
    answered_at: r.answered_at.toISOString(),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
