import type { Db } from '../core/db/db.ts';

export interface DueRow {
  id: number;
  subscription_id: number;
  status: string;
  next_attempt_at: Date | null;
  lease_until: Date | null;
}

/** Due deliveries one sweep takes at most (and `runDue()` attempts). */
export const SWEEP_LIMIT = 1000;

// Every unfinished delivery has next_attempt_at (a claim leaves it, earlier than its lease's end): a range of an
// index on it, status and lease tested on the rows it holds.
const DUE = `d.next_attempt_at <= $1
  and (d.status in ('pending', 'failed') or (d.status = 'delivering' and d.lease_until <= $1))`;
const COLUMNS = 'd.id, d.subscription_id, d.status, d.next_attempt_at, d.lease_until';

// All of them in one range of deliveries_next_attempt (migration 1120), oldest first: when they fit in the limit
// there is nothing to share, and this is the steady state (a probe and the rows due).
const OLDEST_DUE = `
  select ${COLUMNS} from deliveries d join subscriptions s on s.id = d.subscription_id
  where s.status = 'active' and s.deleted_at is null and ${DUE}
  order by d.next_attempt_at, d.id limit $2::int`;

// More are due than a pass takes: the subscriptions with unfinished deliveries come from a skip scan of
// deliveries_unfinished_by_subscription (migration 1200), one probe per subscription that reads its earliest
// unfinished delivery, however many it holds (2000 subscriptions, three with 50000 due: docs/performance.md,
// "Nineteenth session"). At most `limit` of the active ones with a due delivery are served, in turn: those after
// subscription `$3` (the last one the previous shared pass served) by id, then from the first again. Each gets
// `limit / n` of its oldest; what those with fewer leave is shared once among those that filled their share. The
// planner prices the whole at about a thousand (it estimates the recursive scan small), far below jit_above_cost,
// which the same statement over every subscription was not (JIT compiled it: 370 ms).
const FAIR_DUE = `
  with recursive unfinished (subscription_id, first_at) as (
    (select d.subscription_id, d.next_attempt_at from deliveries d where d.next_attempt_at is not null
      order by d.subscription_id, d.next_attempt_at limit 1)
    union all
    select n.subscription_id, n.next_attempt_at from unfinished u cross join lateral (
      select d.subscription_id, d.next_attempt_at from deliveries d
      where d.next_attempt_at is not null and d.subscription_id > u.subscription_id
      order by d.subscription_id, d.next_attempt_at limit 1) n
  ), due_subscriptions as (
    select s.id from unfinished u join subscriptions s on s.id = u.subscription_id
    where u.first_at <= $1 and s.status = 'active' and s.deleted_at is null
    order by s.id <= $3::bigint, s.id limit $2::int
  ), share as (
    select greatest(1, $2::int / greatest(count(*), 1)) as n from due_subscriptions
  ), first_share as (
    select d.* from due_subscriptions s cross join lateral (
      select ${COLUMNS} from deliveries d where d.subscription_id = s.id and ${DUE}
      order by d.next_attempt_at, d.id limit (select n from share)) d
  ), filled as (
    select subscription_id from first_share group by subscription_id having count(*) = (select n from share)
  ), rest_share as (
    select greatest(0, $2::int - (select count(*) from first_share)) / greatest(count(*), 1) as n from filled
  ), second_share as (
    select d.* from filled f cross join lateral (
      select ${COLUMNS} from deliveries d where d.subscription_id = f.subscription_id and ${DUE}
      order by d.next_attempt_at, d.id offset (select n from share) limit (select n from rest_share)) d
  ), turn_end as (
    select id from due_subscriptions order by id <= $3::bigint desc, id desc limit 1
  )
  select d.*, (select id from turn_end) as turn_end
  from (select * from first_share union all select * from second_share) d
  order by d.next_attempt_at, d.id limit $2::int`;

/** The `limit` + 1 oldest due deliveries of active subscriptions: one more than `limit` says there are more to share. */
export function oldestDue(db: Db, now: Date, limit: number): Promise<DueRow[]> {
  return db.query<DueRow>(OLDEST_DUE, [now, limit + 1]);
}

/**
 * At most `limit` due deliveries of active subscriptions, fair between subscriptions: each subscription with due
 * deliveries gets its share of them, its oldest first. Taking the `limit` oldest of all, one subscription with
 * `limit` due (a customer's hung receiver, after a restart or a lost Redis) filled every sweep, and no other
 * customer's due deliveries were swept while it lasted. Beyond `limit` subscriptions with due deliveries, each of
 * `limit` gets one: those after subscription `after` by id, then from the first again (`turnEnd`: where the next
 * pass begins). Taking those whose oldest due delivery was oldest, the same `limit` subscriptions were served every
 * pass while more had due deliveries, and the others not until fewer were due.
 */
export async function sharedDue(
  db: Db,
  now: Date,
  limit: number,
  after: number,
): Promise<{ rows: DueRow[]; turnEnd: number }> {
  const rows = await db.query<DueRow & { turn_end: number }>(FAIR_DUE, [now, limit, after]);
  // The last subscription of this pass's turn (ids above `after`, then from the first): the next shared pass begins
  // after it, so every subscription with due deliveries is served within (their number / limit, rounded up) shared
  // passes. One whose due deliveries are all attempts in flight (their lease not ended) takes its place in the turn
  // and gets none; no row at all leaves the turn where it was.
  return { rows, turnEnd: rows[0] ? Number(rows[0].turn_end) : after };
}

/** Due deliveries, at most `limit`: all of them when they fit, shared between subscriptions otherwise (sharedDue). */
export async function dueDeliveries(db: Db, now: Date, limit: number): Promise<DueRow[]> {
  const oldest = await oldestDue(db, now, limit);
  if (oldest.length <= limit) return oldest;
  return (await sharedDue(db, now, limit, 0)).rows;
}
