import type { Db } from '../core/db/db.ts';
import { RETENTION_BATCH, restAfter } from './batches.ts';

/**
 * Acks behind a consumer's watermark (booking_feed_watermarks: every revision of the property up to
 * acked_through is acked by that consumer) are no longer what the feed reads: it starts after the
 * watermark. They are kept `ackDays` after the ack (a repeated ack within that time still answers the
 * first ack's time), then deleted. Each (consumer, property) remembers in pruned_through how far it got,
 * so a pass reads only the revisions acked since the last one. Stops at the first ack still too young.
 * It also keeps in pruned_acked_at the newest ack time it removed: a repeated ack of a revision whose ack is
 * gone answers that time, by which the revision was acked (bookings/feed.ts), and stores nothing.
 *
 * It rests after every transaction, not only after a full batch as inBatches does: most (consumer, property)
 * pairs move by less than a batch between passes, and an account consumer of 10000 properties has as many pairs.
 * Without a rest, a pass over 18000 pairs ran 34 s flat out, a commit each, beside the bench's push storm
 * (bench:volume, docs/performance.md).
 */
export async function pruneAcksBehindWatermarks(
  db: Db,
  before: Date,
  signal?: AbortSignal,
  rest: (started: number) => Promise<void> = (started) => restAfter(started, signal),
): Promise<number> {
  const marks = await db.sql<{
    consumer_id: number;
    property_id: number;
    acked_through: number;
    pruned_through: number;
  }>`
    select consumer_id, property_id, acked_through, pruned_through from booking_feed_watermarks
    where pruned_through < acked_through`;
  let removed = 0;
  for (const mark of marks) {
    for (;;) {
      const started = performance.now();
      const [step] = await db.tx(
        (tx) => tx.sql<{ removed: number; through: number | null; full: boolean }>`
          with behind as (
            select r.id, a.acked_at from booking_revisions r
            left join booking_revision_acks a on a.consumer_id = ${mark.consumer_id} and a.revision_id = r.id
            where r.property_id = any(array[${mark.property_id}::bigint])
              and r.id > ${mark.pruned_through}::bigint and r.id <= ${mark.acked_through}::bigint
            order by r.property_id, r.id limit ${RETENTION_BATCH}),
          young as (select min(id) as id from behind where acked_at >= ${before}),
          ripe as (select id from behind where id < coalesce((select id from young), 9223372036854775807)),
          gone as (
            delete from booking_revision_acks a using ripe
            where a.consumer_id = ${mark.consumer_id} and a.revision_id = ripe.id returning a.acked_at),
          moved as (
            update booking_feed_watermarks set pruned_through = (select max(id) from ripe),
              pruned_acked_at = greatest(pruned_acked_at, (select max(acked_at) from gone))
            where consumer_id = ${mark.consumer_id} and property_id = ${mark.property_id}
              and exists (select from ripe) returning 1)
          select (select count(*) from gone)::int as removed, (select max(id) from ripe) as through,
            ((select count(*) from behind) = ${RETENTION_BATCH} and (select id from young) is null) as full`,
      );
      removed += step?.removed ?? 0;
      await rest(started);
      if (signal?.aborted) return removed;
      if (!step?.full || step.through === null) break;
      mark.pruned_through = step.through;
    }
  }
  return removed;
}
