import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isReviewChannel, REVIEW_CHANNELS } from './channels.ts';
import { findReview, type ReviewRow } from './reviews.ts';

/**
 * The hotel's one reply to a review. Refused with 422 when the review already has its reply (a channel
 * publishes one answer; a retry with the same Idempotency-Key replays the first answer instead) or when
 * its channel takes no replies. The reply and its delivery job commit together (an outbox): the worker in
 * reply-delivery.ts sends it to the channel, retrying, and its status shows on the review.
 */
export async function replyToReview(
  deps: Deps,
  principal: Principal,
  property: PropertyRow,
  reviewId: string,
  text: string,
  inTx: (tx: Db, replied: ReviewRow) => Promise<void> = async () => {},
): Promise<ReviewRow> {
  return deps.db.tx(async (tx) => {
    const review = await findReview(tx, property.id, reviewId);
    // Two concurrent replies: the lock makes the second see the first's reply.
    const [current] = await tx.sql<{ reply_text: string | null }>`
      select reply_text from reviews where id = ${review.id} for update`;
    if (current?.reply_text != null) throw new ApiError('errors.qc.review_already_replied');
    if (!isReviewChannel(review.channel) || !REVIEW_CHANNELS[review.channel].takesReplies) {
      throw new ApiError('errors.qc.review_replies_not_supported', { channel: review.channel });
    }
    const now = deps.clock.now();
    await tx.sql`update reviews set reply_text = ${text}, replied_at = ${now}, replied_by = ${principal.clientId},
      updated_at = ${now} where id = ${review.id}`;
    await tx.sql`insert into review_reply_deliveries (review_id, next_attempt_at) values (${review.id}, ${now})`;
    await recordEvent(tx, {
      type: 'review.replied',
      customerId: property.customer_id,
      propertyId: property.id,
      data: { property_id: property.external_id, review_id: review.external_id, channel: review.channel },
    });
    const replied = await findReview(tx, property.id, reviewId);
    await inTx(tx, replied);
    return replied;
  });
}
