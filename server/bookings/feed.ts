import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { fieldError, notFound } from '../core/http/api-error.ts';
import { pageSize, wholeNumber } from '../core/http/lenient-query.ts';
import { iso } from '../core/iso.ts';
import { type AccountScope, accountFeedPage, advanceAccountPosition } from './feed-account.ts';
import { type RevisionRow, revisionView } from './view.ts';

/** Feed page size: default 100, larger values are clamped to 500 (spec 8.2 leaves the maximum open). */
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;

/**
 * The feed's `since` and `limit`, for both feed routes, read by the API's one lenient rule: a malformed
 * `since` is 0 (every unacked revision again, which the feed makes harmless), a malformed `limit` the
 * default, a larger one 500.
 */
export function feedCursor(since: string | null | undefined, limit: string | null | undefined) {
  return { since: wholeNumber(since, 0) ?? 0, limit: pageSize(limit, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT) };
}

export interface FeedQuery {
  /** api_clients.id of the consumer (principal.clientPk). */
  consumerId: number;
  /** The allow-list; a principal's own set, so that an account's fingerprint is computed once (feed-account.ts). */
  propertyIds: Iterable<number>;
  /** Resume after this revision id (0: from the start, which re-delivers everything still unacked). */
  since: number;
  limit: number;
  /**
   * Set for an account-scoped consumer (propertyIds are then the customer's allowed properties): the page
   * is one scan in id order from the consumer's position (feed-account.ts), not one per property, but for an
   * account of few properties the scan stops after a span and what it leaves is read per property.
   */
  account?: { customerId: number };
}

/**
 * ONE_PROPERTY_IN_ID_ORDER: every scan of one property's revisions here reads `r.property_id = any(array[..])`
 * and orders by `r.property_id, r.id`, so the only index that yields that order is booking_revisions_property
 * (property_id, id). With a plain `r.property_id = $1` the planner treats the property as a constant, drops it
 * from the order, and (in the generic plan postgres.js's prepared statements settle on) prefers walking the
 * primary key in id order, filtering on property_id: fine when the property holds most revisions, but a walk
 * through every other property's revisions when it holds few (80 ms for a consumer's second property beside
 * 100000 revisions of the first, against 0.3 ms through the property index; bench:feed, docs/performance.md).
 * The "not acked" test is `not exists (... offset 0)`: the `offset 0` keeps it a per-row probe of the acks
 * primary key, where a join would do; as a join, statistics that lag behind a burst of acks (1 row estimated,
 * 99000 there) made the planner materialize the consumer's acks and compare each revision with all of them:
 * a minute for advanceWatermark in bench:feed, 0.15 s as probes. These scans stop at the first rows they
 * need, which a per-row probe serves best. feed.plan.test.ts pins both shapes under the generic plan.
 */
/**
 * One page of the feed (spec 4.5): revisions of the given properties that this consumer has not acked,
 * ascending id, after `since`. `next_cursor` is the last id returned, or `since` when the page is empty.
 * Acks of other consumers are invisible here. Revisions of a customer commit in id order (revisions.ts),
 * so a cursor never skips a revision that commits later with a lower id.
 */
export async function feedPage(db: Db, q: FeedQuery) {
  const page = q.account
    ? await accountFeedPage(db, q.consumerId, { ...q.account, propertyIds: q.propertyIds }, q.since, q.limit)
    : { perPropertyAfter: q.since };
  const rows = 'rows' in page ? page.rows : await perPropertyPage(db, q, page.perPropertyAfter);
  return { booking_revisions: rows.map(revisionView), next_cursor: rows.at(-1)?.id ?? q.since };
}

/**
 * Per property: start after the later of `after` and the consumer's watermark (everything up to it is acked), take
 * the first `limit` unacked; then merge the properties' runs by id. The per-property scan is written in
 * ONE_PROPERTY_IN_ID_ORDER's shape (the note above).
 */
function perPropertyPage(db: Db, q: FeedQuery, after: number): Promise<RevisionRow[]> {
  return db.sql<RevisionRow>`
    select r.id, r.booking_id, r.revision_type, r.created_at, r.payload, p.external_id::text as external_property_id
    from properties p
    left join booking_feed_watermarks w on w.consumer_id = ${q.consumerId} and w.property_id = p.id
    cross join lateral (
      select r.id, r.booking_id, r.revision_type, r.created_at, r.payload from booking_revisions r
      where r.property_id = any(array[p.id]) and r.id > greatest(${after}::bigint, coalesce(w.acked_through, 0))
        and not exists (select from booking_revision_acks a where a.consumer_id = ${q.consumerId} and a.revision_id = r.id offset 0)
      order by r.property_id, r.id
      limit ${q.limit}
    ) r
    where p.id = any(${[...q.propertyIds]}::bigint[])
    order by r.id
    limit ${q.limit}`;
}

/**
 * Moves the consumer's watermark on a property up to just before its first unacked revision (or to the
 * last revision when none is unacked). Every statement it derives is true in the snapshot it reads and
 * acks are never removed, so it stays true; concurrent advances keep the greater value. A revision
 * appended later has a larger id than any visible one (revisions.ts), so it lands above the watermark.
 */
export async function advanceWatermark(db: Db, consumerId: number, propertyId: number): Promise<void> {
  const [current] = await db.sql<{ at: number }>`
    select acked_through as at from booking_feed_watermarks where consumer_id = ${consumerId} and property_id = ${propertyId}`;
  const from = current?.at ?? 0;
  // One statement, one snapshot: "no unacked revision" and "the last revision" must describe the same moment,
  // or a revision committed in between would end up under the watermark unacked.
  const [found] = await db.sql<{ hole: number | null; last: number | null }>`
    select
      (select r.id from booking_revisions r
        where r.property_id = any(array[${propertyId}::bigint]) and r.id > ${from}::bigint
          and not exists (select from booking_revision_acks a where a.consumer_id = ${consumerId} and a.revision_id = r.id offset 0)
        order by r.property_id, r.id limit 1) as hole,
      (select r.id from booking_revisions r where r.property_id = any(array[${propertyId}::bigint])
        order by r.property_id desc, r.id desc limit 1) as last`;
  const target = found?.hole != null ? found.hole - 1 : (found?.last ?? 0);
  if (target <= from) return;
  await db.sql`
    insert into booking_feed_watermarks (consumer_id, property_id, acked_through) values (${consumerId}, ${propertyId}, ${target})
    on conflict (consumer_id, property_id) do update
      set acked_through = greatest(booking_feed_watermarks.acked_through, excluded.acked_through)`;
}

/** A revision as its ack needs it: which one, and the property whose watermark the ack moves. */
export interface AckedRevision {
  id: number;
  property_id: number;
}

/**
 * The revision a path segment names, on a property the token may act on: one probe of the primary key. A revision
 * outside the token's properties, or a segment that is not a revision id, is 404 like a missing one.
 */
export async function revisionInScope(db: Db, principal: Principal, segment: string): Promise<AckedRevision> {
  if (!/^\d{1,18}$/.test(segment)) throw notFound();
  const [revision] = await db.sql<AckedRevision>`
    select id, property_id from booking_revisions where id = ${Number(segment)}`;
  if (!revision || !principal.propertyIds.has(revision.property_id)) throw notFound();
  return revision;
}

/**
 * Acknowledges one revision (found by revisionInScope) for one consumer (spec 3): idempotent (a repeat answers the
 * first ack's time), never visible to other consumers. A revision at or below the consumer's watermark is acked
 * whether or not its ack is still kept (feed-account.ts reads it so too): a repeat stores nothing. Once retention
 * removed the ack (retention/feed-acks.ts), the first time is gone with it, and a repeat answers the newest ack time
 * retention removed for that consumer and property: the revision was acked by then.
 */
export async function ackRevision(
  db: Db,
  consumerId: number,
  revision: AckedRevision,
  at: Date,
  /** An account-scoped consumer's account: its position (feed-account.ts) moves with the ack. */
  account?: AccountScope,
) {
  const revisionId = revision.id;
  const inserted = await db.sql`
    insert into booking_revision_acks (consumer_id, revision_id, acked_at)
    select ${consumerId}, ${revisionId}, ${at}
    where not exists (select from booking_feed_watermarks w where w.consumer_id = ${consumerId}
      and w.property_id = ${revision.property_id} and w.acked_through >= ${revisionId})
    on conflict (consumer_id, revision_id) do nothing returning revision_id`;
  if (inserted.length) {
    await advanceWatermark(db, consumerId, revision.property_id);
    if (account) await advanceAccountPosition(db, consumerId, account);
  }
  // One statement, one snapshot: a retention pass removes the ack and records its time in one transaction, so
  // exactly one of the two is there (neither only under a watermark set by hand with no ack behind it: this
  // request's time then).
  const [ack] = await db.sql<{ acked_at: Date | null }>`
    select coalesce(
      (select acked_at from booking_revision_acks where consumer_id = ${consumerId} and revision_id = ${revisionId}),
      (select pruned_acked_at from booking_feed_watermarks where consumer_id = ${consumerId}
        and property_id = ${revision.property_id} and pruned_through >= ${revisionId})) as acked_at`;
  return { revision_id: revisionId, acked: true, acked_at: new Date(ack?.acked_at ?? at).toISOString() };
}

/**
 * The migration form `POST /bookings/{id}/ack`: acknowledges, for this consumer, every revision of the
 * booking that exists now, or only those up to `upToRevisionId` when given (what a consumer that saved a
 * particular revision should send, so a revision appended meanwhile is not acked unseen). As in ackRevision, a
 * revision at or below the consumer's watermark is acked already, its ack kept or not: not acked now, and listed.
 */
export async function ackBookingRevisions(
  db: Db,
  consumerId: number,
  booking: { id: number; property_id: number },
  upToRevisionId: number | undefined,
  at: Date,
  account?: AccountScope,
) {
  if (upToRevisionId !== undefined && !Number.isSafeInteger(upToRevisionId))
    throw fieldError('booking', 'revision_id', 'integer');
  const bookingId = booking.id;
  const acked = await db.sql<{ revision_id: number }>`
    insert into booking_revision_acks (consumer_id, revision_id, acked_at)
    select ${consumerId}, r.id, ${at} from booking_revisions r
    where r.booking_id = ${bookingId} and r.id <= ${upToRevisionId ?? Number.MAX_SAFE_INTEGER}
      and not exists (select from booking_feed_watermarks w where w.consumer_id = ${consumerId}
        and w.property_id = r.property_id and w.acked_through >= r.id)
    on conflict (consumer_id, revision_id) do nothing
    returning revision_id`;
  if (acked.length) {
    await advanceWatermark(db, consumerId, booking.property_id);
    if (account) await advanceAccountPosition(db, consumerId, account);
  }
  const [all] = await db.sql<{ ids: number[] | null }>`
    select array_agg(r.id order by r.id) as ids from booking_revisions r
    where r.booking_id = ${bookingId}
      and (exists (select from booking_revision_acks a where a.consumer_id = ${consumerId} and a.revision_id = r.id)
        or exists (select from booking_feed_watermarks w where w.consumer_id = ${consumerId}
          and w.property_id = r.property_id and w.acked_through >= r.id))`;
  return { acked_now: acked.length, acked_revision_ids: (all?.ids ?? []).map(Number) };
}

/**
 * Feed health of one property for one consumer (spec 2.7): green when nothing is pending and the lag is
 * under 60 seconds, yellow otherwise. `ack_lag_seconds` is the age of the oldest revision this consumer
 * has not acked (0 when none is pending).
 */
export async function feedHealth(db: Db, consumerId: number, propertyId: number, now: Date) {
  const [row] = await db.sql<{ last_revision_at: Date | null; pending: number; oldest_pending: Date | null }>`
    select
      (select r.created_at from booking_revisions r where r.property_id = any(array[${propertyId}::bigint])
        order by r.property_id desc, r.id desc limit 1) as last_revision_at,
      count(*)::int as pending,
      min(r.created_at) as oldest_pending
    from booking_revisions r
    -- No order to lean on here: the row comparison is a range only booking_revisions_property can serve.
    where r.property_id = any(array[${propertyId}::bigint])
      and (r.property_id, r.id) > (${propertyId}::bigint, coalesce((select acked_through from booking_feed_watermarks where consumer_id = ${consumerId} and property_id = ${propertyId}), 0))
      and not exists (select from booking_revision_acks a where a.consumer_id = ${consumerId} and a.revision_id = r.id offset 0)`;
  const pending = row?.pending ?? 0;
  const lag = row?.oldest_pending
    ? Math.max(0, Math.floor((now.getTime() - new Date(row.oldest_pending).getTime()) / 1000))
    : 0;
  return {
    last_revision_at: iso(row?.last_revision_at ?? null),
    pending_revisions_count: pending,
    ack_lag_seconds: lag,
    status: pending === 0 && lag < 60 ? ('green' as const) : ('yellow' as const),
  };
}
