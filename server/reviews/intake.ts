import { isDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, fieldError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isReviewChannel, REVIEW_CHANNELS } from './channels.ts';
import { findReview, type ReviewRow } from './reviews.ts';

export interface IncomingReview {
  channel_review_id: string;
  rating: number;
  rating_scale?: number;
  title?: string;
  body?: string;
  reviewer_name?: string;
  language?: string;
  stayed_on?: string;
  booking_id?: string;
  submitted_at: string;
}

export type IntakeOutcome = 'created' | 'updated' | 'unchanged';

/**
 * One review from a channel, from either intake (the inbound channel webhook or the operator API). Upsert
 * by (property, channel, channel_review_id): a redelivery changes nothing; a guest's edit on the channel
 * updates the text and rating and keeps the hotel's reply. `booking_id` is matched against the property's
 * bookings by external id, then by the channel's reservation reference; no match leaves it empty.
 */
export async function receiveReview(
  deps: Deps,
  property: PropertyRow,
  channel: string,
  input: IncomingReview,
): Promise<{ review: ReviewRow; outcome: IntakeOutcome }> {
  if (!isReviewChannel(channel)) throw new ApiError('errors.qc.review_unknown_channel');
  const submittedAt = new Date(input.submitted_at);
  if (Number.isNaN(submittedAt.getTime())) throw fieldError('review', 'submitted_at', 'format');
  // The date format admits 2026-02-30; PostgreSQL does not.
  if (input.stayed_on !== undefined && !isDay(input.stayed_on)) throw fieldError('review', 'stayed_on', 'format');
  const scale = input.rating_scale ?? REVIEW_CHANNELS[channel].scale;
  // The schema bounds a rating by the largest scale (100) only: a 9 on Expedia's 5 was stored as a rating.
  if (input.rating > scale) throw fieldError('review', 'rating', 'max');
  return deps.db.tx(async (tx) => {
    const [booking] = input.booking_id
      ? await tx.sql<{ id: number }>`
          select id from bookings where property_id = ${property.id}
            and (external_booking_id = ${input.booking_id} or (source_channel = ${channel} and channel_reference = ${input.booking_id}))
          order by (external_booking_id = ${input.booking_id}) desc limit 1`
      : [];
    const [row] = await tx.sql<{ external_id: string; inserted: boolean }>`
      insert into reviews (property_id, channel, channel_review_id, booking_id, rating, rating_scale, title, body,
        reviewer_name, language, stayed_on, submitted_at)
      values (${property.id}, ${channel}, ${input.channel_review_id}, ${booking?.id ?? null}, ${input.rating}, ${scale},
        ${input.title ?? ''}, ${input.body ?? ''}, ${input.reviewer_name ?? ''}, ${input.language ?? null},
        ${input.stayed_on ?? null}, ${submittedAt})
      on conflict (property_id, channel, channel_review_id) do update set
        booking_id = coalesce(excluded.booking_id, reviews.booking_id), rating = excluded.rating,
        rating_scale = excluded.rating_scale, title = excluded.title, body = excluded.body,
        reviewer_name = excluded.reviewer_name, language = excluded.language, stayed_on = excluded.stayed_on,
        submitted_at = excluded.submitted_at, updated_at = now()
      where (reviews.rating, reviews.rating_scale, reviews.title, reviews.body, reviews.reviewer_name,
          reviews.language, reviews.stayed_on, reviews.submitted_at, reviews.booking_id)
        is distinct from (excluded.rating, excluded.rating_scale, excluded.title, excluded.body, excluded.reviewer_name,
          excluded.language, excluded.stayed_on, excluded.submitted_at, coalesce(excluded.booking_id, reviews.booking_id))
      returning external_id, (xmax = 0) as inserted`;
    const externalId =
      row?.external_id ??
      (
        await tx.sql<{ external_id: string }>`select external_id from reviews
          where property_id = ${property.id} and channel = ${channel} and channel_review_id = ${input.channel_review_id}`
      )[0]?.external_id;
    const review = await findReview(tx, property.id, externalId as string);
    const outcome: IntakeOutcome = !row ? 'unchanged' : row.inserted ? 'created' : 'updated';
    if (outcome === 'created') {
      await recordEvent(tx, {
        type: 'review.received',
        customerId: property.customer_id,
        propertyId: property.id,
        data: { property_id: property.external_id, review_id: review.external_id, channel, rating: review.rating },
      });
    }
    return { review, outcome };
  });
}
