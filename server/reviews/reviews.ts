import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { isUuid } from '../core/resolve.ts';

export interface ReviewRow {
  id: number;
  external_id: string;
  property_id: number;
  channel: string;
  channel_review_id: string;
  booking_id: number | null;
  rating: number;
  rating_scale: number;
  title: string;
  body: string;
  reviewer_name: string;
  language: string | null;
  stayed_on: string | null;
  submitted_at: Date;
  reply_text: string | null;
  replied_at: Date | null;
  received_at: Date;
  external_booking_id: string | null;
  delivery_status: 'pending' | 'sending' | 'sent' | 'failed' | null;
  delivery_attempts: number | null;
  delivery_last_error: string | null;
  delivery_next_attempt_at: Date | null;
  delivery_sent_at: Date | null;
}

const SELECT = `select r.*, b.external_booking_id, d.status as delivery_status, d.attempts as delivery_attempts,
    d.last_error as delivery_last_error, d.next_attempt_at as delivery_next_attempt_at, d.sent_at as delivery_sent_at
  from reviews r
  left join bookings b on b.id = r.booking_id
  left join review_reply_deliveries d on d.review_id = r.id`;

/** A review of the property by its id; 404 otherwise (another property's, or an id of the wrong form). */
export async function findReview(db: Db, propertyId: number, externalId: string): Promise<ReviewRow> {
  if (!isUuid(externalId)) throw notFound();
  const [row] = await db.query<ReviewRow>(`${SELECT} where r.property_id = $1 and r.external_id = $2::uuid`, [
    propertyId,
    externalId,
  ]);
  if (!row) throw notFound();
  return row;
}

export interface ReviewFilter {
  channel?: string;
  replied?: boolean;
}

/** Newest review first (by the channel's submission time). */
export async function listReviews(db: Db, propertyId: number, filter: ReviewFilter, page: number, perPage: number) {
  const where = `r.property_id = $1 and ($2::text is null or r.channel = $2)
    and ($3::boolean is null or (r.reply_text is not null) = $3)`;
  const params = [propertyId, filter.channel ?? null, filter.replied ?? null];
  const rows = await db.query<ReviewRow>(
    `${SELECT} where ${where} order by r.submitted_at desc, r.id desc limit $4 offset $5`,
    [...params, perPage, (page - 1) * perPage],
  );
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from reviews r where ${where}`, params);
  return { rows, total: count?.n ?? 0 };
}
