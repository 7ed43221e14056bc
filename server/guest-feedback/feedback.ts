import { updateOwned } from '../config-surfaces/owned-records.ts';
import type { Db } from '../core/db/db.ts';
import { SqlState, sqlState } from '../core/db/db.ts';
import { ApiError, notFound } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import { isUuid, type PropertyRow } from '../core/resolve.ts';

export interface FeedbackRow {
  id: number;
  external_id: string;
  property_id: number;
  booking_id: number;
  overall_score: number;
  scores: Record<string, number>;
  comment: string;
  language: string | null;
  would_recommend: boolean | null;
  answered_at: Date;
  created_at: Date;
  updated_at: Date;
  external_booking_id: string;
  source_channel: string;
  checkin_date: string;
  checkout_date: string;
  guest_first_name: string;
  guest_last_name: string;
}

export interface NewFeedback {
  bookingId: string;
  overallScore: number;
  scores?: Record<string, number>;
  comment?: string;
  language?: string;
  wouldRecommend?: boolean | null;
  answeredAt: Date;
}

const SELECT = `select f.*, b.external_booking_id, b.source_channel, b.checkin_date, b.checkout_date,
    b.guest_first_name, b.guest_last_name
  from guest_feedback f join bookings b on b.id = f.booking_id`;

/** An answer of the property by its id; 404 otherwise (another property's, or an id of the wrong form). */
export async function findFeedback(db: Db, propertyId: number, externalId: string): Promise<FeedbackRow> {
  if (!isUuid(externalId)) throw notFound();
  const [row] = await db.query<FeedbackRow>(`${SELECT} where f.property_id = $1 and f.external_id = $2::uuid`, [
    propertyId,
    externalId,
  ]);
  if (!row) throw notFound();
  return row;
}

/** Newest answer first; `bookingId` narrows to one booking (exact external_booking_id). */
export async function listFeedback(db: Db, propertyId: number, page: number, perPage: number, bookingId?: string) {
  const filter = bookingId === undefined ? '' : 'and b.external_booking_id = $4';
  const params: unknown[] = [propertyId, perPage, (page - 1) * perPage];
  if (bookingId !== undefined) params.push(bookingId);
  const rows = await db.query<FeedbackRow>(
    `${SELECT} where f.property_id = $1 ${filter} order by f.answered_at desc, f.id desc limit $2 offset $3`,
    params,
  );
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from guest_feedback f join bookings b on b.id = f.booking_id
     where f.property_id = $1 ${filter.replace('$4', '$2')}`,
    bookingId === undefined ? [propertyId] : [propertyId, bookingId],
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * Records what a guest answered after a stay: one answer per booking of this property (a second is 409
 * errors.qc.guest_feedback_exists naming the first, to update instead).
 */
export async function createFeedback(tx: Db, property: PropertyRow, input: NewFeedback): Promise<FeedbackRow> {
  const [booking] = await tx.sql<{ id: number }>`
    select id from bookings where property_id = ${property.id} and external_booking_id = ${input.bookingId}`;
  if (!booking) throw new ApiError('errors.qc.guest_feedback_unknown_booking');
  const [existing] = await tx.sql<{ external_id: string }>`
    select external_id from guest_feedback where booking_id = ${booking.id}`;
  if (existing) throw new ApiError('errors.qc.guest_feedback_exists', { feedback_id: existing.external_id });
  let id: string;
  try {
    const [row] = await tx.sql<{ external_id: string }>`
      insert into guest_feedback (property_id, booking_id, overall_score, scores, comment, language, would_recommend, answered_at)
      values (${property.id}, ${booking.id}, ${input.overallScore}, ${input.scores ?? {}}, ${input.comment ?? ''},
        ${input.language ?? null}, ${input.wouldRecommend ?? null}, ${input.answeredAt})
      returning external_id`;
    id = (row as { external_id: string }).external_id;
  } catch (err) {
    // A concurrent answer for the same booking won the unique index.
    if (sqlState(err) === SqlState.uniqueViolation) throw new ApiError('errors.qc.guest_feedback_exists');
    throw err;
  }
  await recordEvent(tx, { type: 'guest_feedback.created', ...feedbackEvent(property, id, input.bookingId) });
  return findFeedback(tx, property.id, id);
}

export interface FeedbackChanges {
  overall_score?: number;
  /** Merged category by category; a category set to null is removed. */
  scores?: Record<string, number | null>;
  comment?: string;
  language?: string | null;
  would_recommend?: boolean | null;
}

/**
 * Only the fields present change, `scores` category by category; the booking and the answer time stay. A PATCH
 * that changes nothing writes nothing and records no event.
 */
export async function updateFeedback(tx: Db, property: PropertyRow, externalId: string, changes: FeedbackChanges) {
  const current = await findFeedback(tx, property.id, externalId);
  const updated = await updateOwned(
    tx,
    'guest_feedback',
    current.id,
    {
      overall_score: changes.overall_score ?? current.overall_score,
      scores: changes.scores ? mergedScores(current.scores, changes.scores) : current.scores,
      comment: changes.comment ?? current.comment,
      language: changes.language === undefined ? current.language : changes.language,
      would_recommend: changes.would_recommend === undefined ? current.would_recommend : changes.would_recommend,
    },
    undefined,
  );
  if (!updated) return current;
  await recordEvent(tx, {
    type: 'guest_feedback.updated',
    ...feedbackEvent(property, externalId, current.external_booking_id),
  });
  return findFeedback(tx, property.id, externalId);
}

function mergedScores(current: Record<string, number>, changes: Record<string, number | null>) {
  const merged = Object.entries({ ...current, ...changes });
  return Object.fromEntries(merged.filter((entry): entry is [string, number] => entry[1] !== null));
}

export async function deleteFeedback(tx: Db, property: PropertyRow, externalId: string) {
  const current = await findFeedback(tx, property.id, externalId);
  await tx.sql`delete from guest_feedback where id = ${current.id}`;
  await recordEvent(tx, {
    type: 'guest_feedback.deleted',
    ...feedbackEvent(property, current.external_id, current.external_booking_id),
  });
  return { id: current.external_id, deleted: true as const };
}

function feedbackEvent(property: PropertyRow, feedbackId: string, bookingId: string) {
  return {
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, feedback_id: feedbackId, booking_id: bookingId },
  };
}
