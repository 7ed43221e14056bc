import { addDays, utcDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { inBatches, type Slice, walkFront } from './batches.ts';

/**
 * Legacy revisions (legacy_booking_revisions) of stays that ended `days` ago: every revision but the
 * booking's latest goes. The latest stays, so getBookings still answers the booking's current revision id
 * and a late change numbers its next revision after it.
 */
export function pruneLegacyRevisions(db: Db, now: Date, days: number, signal?: AbortSignal): Promise<number> {
  const ended = addDays(utcDay(now), -days);
  return inBatches(
    (batch) =>
      db.affected`
        delete from legacy_booking_revisions where id = any(array(
          select l.id from legacy_booking_revisions l join bookings b on b.id = l.booking_id
          where b.checkout_date < ${ended}::date
            and exists (select from legacy_booking_revisions n where n.booking_id = l.booking_id and n.seq > l.seq)
          order by l.id limit ${batch}))`,
    signal,
  );
}

/**
 * Shadow comparison samples older than `days` (their writer trims a key's old samples when it keeps a new
 * one; a key that stopped differing would keep its samples for ever without this). A walk over the front of
 * the primary key (walkFront: samples are numbered as they are taken), not "the first samples past the day in id
 * order": no index leads with the day, so that query walked the key filtering by day, and its last, short batch of
 * every pass read every sample, bodies and all, to find no more.
 */
export function pruneShadowSamples(db: Db, now: Date, days: number, signal?: AbortSignal): Promise<number> {
  const oldest = addDays(utcDay(now), -days);
  return walkFront(async (after, batch) => {
    const [slice] = await db.sql<Slice>`
      with front as materialized (
        select id, day from legacy_shadow_samples where id > ${after} order by id limit ${batch}),
      gone as (
        delete from legacy_shadow_samples s using front f where s.id = f.id and f.day < ${oldest}::date returning 1)
      select (select count(*) from gone)::int as removed, (select max(id) from front) as last,
        ((select count(*) from front) < ${batch} or exists (select from front where day >= ${oldest}::date)) as done`;
    return slice ?? { removed: 0, last: null, done: true };
  }, signal);
}
