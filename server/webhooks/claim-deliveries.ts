import { utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { nextUtcMidnight } from './ladder.ts';

/** A claimed delivery: what its attempt needs to sign and send it. */
export interface Claim {
  id: number;
  external_id: string;
  attempts: number;
  status: string;
  body: string;
  event_type: string;
  secret_version: number;
  subscription_id: number;
  subscription_external_id: string;
  customer_id: number;
  url: string;
  secret: string;
  current_version: number;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_by: number;
}

export type ClaimOutcome =
  | { claim: Claim; attempt: number; at: Date }
  | { kind: 'skipped' }
  | { kind: 'deferred'; runAt: Date };

export interface ClaimSettings {
  /** Deliveries a client may start per UTC day (the webhook-fanout budget). */
  fanoutPerDay: number;
  leaseMs: number;
}

/**
 * Claims the deliveries of `ids` that are due, in one statement (one round trip for a batch of them: issue 27).
 * Each row is locked when due and its subscription active, and skipped when another worker holds it. A delivery's
 * first attempt is charged to its client's fan-out budget (retries of a started delivery are free): with k units
 * left for the day, the client's first k first attempts of the batch (by id) are claimed and the rest deferred to
 * midnight, as k single claims would have done. A claimed row is
 * `delivering` under a lease. Answers one outcome per id, in the order of `ids`. The claim sets no column an index
 * reads (next_attempt_at stays as it was), so PostgreSQL rewrites the row in place with no index entry (HOT,
 * migration 1120): keep it so.
 *
 * The commit does not wait for the WAL flush (`synchronous_commit` off for this transaction only): every claim of
 * a client's first attempts updates one fan-out usage row, so those commits queued behind each other's disk flush.
 * What a crash can lose is the last fraction of a second of this bookkeeping, and losing it only repeats work the
 * contract allows to repeat: a lost claim leaves the delivery due (or its lease to run out), and it is delivered
 * again with the same X-Qc-Delivery (at least once, spec 6.1).
 */
export async function claimDeliveries(deps: Deps, settings: ClaimSettings, ids: number[]): Promise<ClaimOutcome[]> {
  const at = deps.clock.now();
  const midnight = nextUtcMidnight(at);
  const rows = await deps.db.sql<Claim & { granted: boolean }>`
    with due as (
      -- One probe by primary key per id (lateral), the due test a case expression: a plan made while the table
      -- was small (plans are kept per connection) otherwise scanned the partial indexes of unfinished deliveries,
      -- which hold an entry for every claim since the last vacuum (600 thousand entries read a second in
      -- bench/webhooks.ts).
      -- The array as a subquery: the planner then estimates its length as a generic plan does, which is what
      -- makes a generic plan (planned once per connection) win; planning each batch afresh was a fifth of
      -- PostgreSQL's time.
      select due.* from unnest((select ${[...new Set(ids)]}::bigint[])) as x(id) cross join lateral (
        select d.id, d.external_id, d.attempts, d.status, d.body, d.event_type, d.secret_version,
          s.id as subscription_id, s.external_id as subscription_external_id, s.customer_id, s.url, s.secret,
          s.secret_version as current_version, s.previous_secret, s.previous_secret_expires_at, s.created_by,
          (d.status = 'pending' and d.attempts = 0) as charged
        from deliveries d join subscriptions s on s.id = d.subscription_id
        where d.id = x.id and s.status = 'active' and s.deleted_at is null
          and case when d.status in ('pending', 'failed') then d.next_attempt_at <= ${at}
            when d.status = 'delivering' then d.lease_until <= ${at} else false end
        for update of d skip locked) due
    ), charge as (
      -- One upsert per client (in client order, so two batches never wait on each other crosswise). The conflict
      -- branch locks the client's row as last committed and keeps the count it replaces in used_before (migration
      -- 1121): what the batch was granted is the difference, which RETURNING alone cannot tell before PostgreSQL 18.
      -- The count never goes down (a budget lowered below it grants nothing).
      insert into webhook_fanout_usage as u (client_id, day, used, used_before)
      select created_by, ${utcDay(at)}::date, least(count(*), ${settings.fanoutPerDay}::int), 0
      from due where charged group by created_by order by created_by
      on conflict on constraint webhook_fanout_usage_pkey do update
        set used = greatest(u.used, least(${settings.fanoutPerDay}::int, u.used + excluded.used)), used_before = u.used
      returning u.client_id as client, u.used - u.used_before as granted
    ), verdict as (
      select due.*, (not due.charged or row_number() over (partition by due.created_by, due.charged order by due.id)
        <= coalesce((select c.granted from charge c where c.client = due.created_by), 0)) as granted
      from due
    ), claimed as (
      update deliveries d set status = 'delivering', attempts = d.attempts + 1,
        lease_until = ${new Date(at.getTime() + settings.leaseMs)},
        first_attempt_at = coalesce(d.first_attempt_at, ${at}), last_attempt_at = ${at}
      from verdict v where d.id = v.id and v.granted
    ), deferred as (
      update deliveries d set next_attempt_at = ${midnight} from verdict v where d.id = v.id and not v.granted
    )
    select v.*, set_config('synchronous_commit', 'off', true) as relaxed from verdict v`;
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.map((id): ClaimOutcome => {
    const row = byId.get(id);
    // An id asked twice in one batch is claimed once: the second ask finds it held, as it would a moment later.
    byId.delete(id);
    if (!row) return { kind: 'skipped' };
    if (!row.granted) return { kind: 'deferred', runAt: midnight };
    return { claim: row, attempt: row.attempts + 1, at };
  });
}
