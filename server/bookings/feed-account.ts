import { ALLOWED_PROPERTY } from '../core/auth/authenticate.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import type { RevisionRow } from './view.ts';

/**
 * The feed of an account-scoped consumer (a token for every property of the customer), whatever the
 * number of properties: ONE scan of booking_revisions in id order, not one scan per property (bounded to a span
 * for an account of few properties, below).
 *
 * The per-property shape (feed.ts feedPage) probes every property of the allow-list on every poll: 10000
 * index probes for a caught-up consumer of a 10000-property account, and for a new one the first `limit`
 * revisions of each property merged and sorted (issue 24: 258-293 ms a poll at 1000 properties, 503 at
 * limit 500). Here the page is the first `limit` revisions after the consumer's position, in primary-key
 * order, that belong to the account's allowed properties and are not acked: it reads about `limit` rows
 * when the account holds most of the feed, and stops there.
 *
 * The consumer's position (booking_feed_positions) is the id through which every revision of its allowed
 * properties is acked, so a poll from since=0 after a restart starts there instead of walking the acked
 * history. It is kept per allow-list (`scope`, a fingerprint of the allowed ids): when the allow-list
 * changes (a property added or re-enabled, a group unpaused, with revisions the consumer never acked), the
 * stored position no longer applies. The first poll under the new allow-list builds one from the consumer's
 * per-property watermarks (rebuildPosition), once. Each ack advances it by at most POSITION_LOOKAHEAD
 * revisions (a bounded look-ahead), so an ack never walks a long acked history at once. Revisions of a
 * customer commit in id order (revisions.ts), so a revision committed later lands above it.
 *
 * A revision at or below its property's watermark (booking_feed_watermarks) is acked, whether or not its ack is
 * still kept: retention deletes acks behind watermarks (retention/feed-acks.ts). The page and the look-ahead
 * both probe the watermark beside the ack. Reading acks alone, a consumer whose allow-list changed after its
 * acks were removed was sent every revision of its account again, and its position never moved past the first.
 *
 * The scan reads about `limit` rows while the account holds most of the revisions after the position, and every
 * other customer's revisions it passes on the way: a caught-up consumer of a 3-property account beside a
 * 3000-property one walked all of the other's later revisions on every poll and every ack (2000 rows, 4.6 ms;
 * 500000 rows, 0.7 s), and one customer's growth slowed every other's polls. An account of at most
 * PER_PROPERTY_UP_TO properties therefore scans only a SPAN of twice the page after its start; a page the span
 * does not fill while the feed goes on past it is read per property instead (feed.ts, the shape of a token
 * narrowed to some properties), and its acks move the position per property (rebuildPosition). What such an
 * account reads is then the span, a probe per property and its own revisions, whatever the others hold
 * (feed.plan.test.ts pins it).
 *
 * Every revision carries its customer (migration 1260): once all of them do (`booking_revision_customer_fill.done`,
 * set by the migration on a small table and by the backfill on a large one, scripts/revision-customer-backfill.ts),
 * every account, of any size, reads one range of booking_revisions_customer, (customer_id, id) after its start,
 * and its acks look ahead in that range too: what a poll reads is its page and its own acked revisions, never
 * another customer's. Until then, with rows still without a customer, it reads as described above. The flag
 * rides on the statement that reads the position (onGenericPlan): no round trip more.
 */

export interface AccountScope {
  customerId: number;
  propertyIds: Iterable<number>;
}

const POSITION_LOOKAHEAD = 5000;

/**
 * The largest account read per property past its span. Per property, a new consumer's page reads up to `limit`
 * revisions of every property; the scan reads `limit` divided by the account's share of the revisions, so per
 * property reads less while the account holds fewer than about the square root of all properties. Measured
 * (docs/scaling.md, "The feed": 455000 revisions, 4000 properties, 1 KB payloads), a new consumer's page of 100
 * took 12 ms per property against 28 scanned at 50 properties, 23 against 12 at 100, 70 against 8 at 200; of 500,
 * 29 against 45 at 100, 63 against 24 at 200. A caught-up poll took 0.5-4 ms at 3 to 400 properties, against
 * 140 ms scanned past 90000 revisions of other customers. 100: the crossing for 10000 properties, bench:volume's.
 */
export const PER_PROPERTY_UP_TO = 100;

/** How many ids after its start an account of few properties scans, in pages: what one holding half of them fills. */
const SPAN = 2;

/** The account of an account-scoped principal (its position moves with its acks); undefined otherwise. */
export function feedAccount(principal: Principal): AccountScope | undefined {
  return principal.accountScoped ? { customerId: principal.customerId, propertyIds: principal.propertyIds } : undefined;
}

/**
 * "r is a revision of an allowed property": the customer's active properties outside paused groups, as
 * authenticate.ts resolves an account-scoped client's `allowed`. Probed per revision by the properties
 * primary key: the `offset 0` keeps it a probe. As a join, the planner drives from the account's
 * properties, one index scan each, and sorts their revisions: the per-property cost this file avoids
 * (feed.plan.test.ts pins the shape under the generic plan).
 */
const ALLOWED_REVISION = `exists (select from properties p where p.id = r.property_id and p.customer_id = $1
  and ${ALLOWED_PROPERTY} offset 0)`;

/**
 * "r is acked by consumer `$consumer`": its ack is kept, or r is at or below its property's watermark. Probes of
 * the two primary keys per revision; the `offset 0` keeps each a probe (feed.ts says why).
 */
const ACKED_REVISION = (consumer: string) => `(exists (select from booking_revision_acks a
    where a.consumer_id = ${consumer} and a.revision_id = r.id offset 0)
  or exists (select from booking_feed_watermarks w
    where w.consumer_id = ${consumer} and w.property_id = r.property_id and w.acked_through >= r.id offset 0))`;

/**
 * How a position is stored: under the same allow-list the greater one stays (concurrent writers, each true in its
 * snapshot); under another allow-list it replaces the old one, which no longer applies.
 */
const KEEP_GREATER_POSITION = `on conflict (consumer_id) do update set
  scope = excluded.scope,
  acked_through = case when booking_feed_positions.scope = excluded.scope
    then greatest(booking_feed_positions.acked_through, excluded.acked_through) else excluded.acked_through end`;

interface AllowList {
  /** An order-independent fingerprint: the size, sum and a mixed hash of the ids. */
  scope: string;
  size: number;
}

// A principal's allow-list is one set for as long as its cached row lives: fingerprinted once, not every poll.
const allowLists = new WeakMap<Iterable<number>, AllowList>();

function allowListOf(propertyIds: Iterable<number>): AllowList {
  let known = allowLists.get(propertyIds);
  if (known === undefined) {
    known = fingerprint(propertyIds);
    allowLists.set(propertyIds, known);
  }
  return known;
}

export function scopeOf(propertyIds: Iterable<number>): string {
  return allowListOf(propertyIds).scope;
}

/** An account of few enough properties to be read per property past its span (PER_PROPERTY_UP_TO). */
function fewProperties(account: AccountScope): boolean {
  return allowListOf(account.propertyIds).size <= PER_PROPERTY_UP_TO;
}

function fingerprint(propertyIds: Iterable<number>): AllowList {
  let n = 0;
  let sum = 0;
  let mixed = 0;
  for (const id of propertyIds) {
    n++;
    sum += id;
    // Order-independent: a sum of per-id hashes (Math.imul keeps it in 32 bits).
    mixed = (mixed + Math.imul(id ^ (id >>> 16), 0x45d9f3b)) | 0;
  }
  return { scope: `${n}:${sum}:${mixed >>> 0}`, size: n };
}

/**
 * The page of an account: unacked revisions after max(since, position), ascending id. Or, for an account of few
 * properties whose span the page did not fill while the feed goes on past it, the id to read it per property after
 * (feed.ts): that read is one statement of its own, so the page comes from one snapshot whichever way it is read
 * (revisions.ts: commit order is id order only within one).
 */
export async function accountFeedPage(
  db: Db,
  consumerId: number,
  account: AccountScope,
  since: number,
  limit: number,
): Promise<{ rows: RevisionRow[] } | { perPropertyAfter: number }> {
  const scope = scopeOf(account.propertyIds);
  const spanned = fewProperties(account);
  return onGenericPlan(db, consumerId, scope, spanned, async (tx, { stored, last, filled }) => {
    const position = stored ?? (await rebuildPosition(tx, consumerId, account, scope));
    const params = [account.customerId, since, position, consumerId, limit];
    if (filled) return { rows: await tx.query<RevisionRow>(accountScan('customer'), params) };
    if (!spanned) return { rows: await tx.query<RevisionRow>(accountScan('all'), params) };
    // `last` was read before the scan: a revision committed in between past the span is left to the next poll, the
    // page being then the first of the feed's revisions (all of them up to the span), and the cursor safe.
    const start = Math.max(since, position);
    const rows = await tx.query<RevisionRow>(accountScan('span'), [...params, start + SPAN * limit]);
    return rows.length < limit && last > start + SPAN * limit ? { perPropertyAfter: start } : { rows };
  });
}

/**
 * What a scan reads of booking_revisions after the start: every customer's revisions (`all`), up to `$6` (`span`),
 * or the account's own range of (customer_id, id) once every revision carries its customer (`customer`).
 */
const RANGES = { all: '', span: 'and r.id <= $6', customer: 'and r.customer_id = $1' } as const;

/** The scan: unacked revisions of the account's allowed properties after the start, in id order, `$5` of them. */
function accountScan(range: keyof typeof RANGES): string {
  return `select r.id, r.booking_id, r.revision_type, r.created_at, r.payload,
       (select p.external_id::text from properties p where p.id = r.property_id) as external_property_id
     from booking_revisions r
     where r.id > greatest($2::bigint, $3::bigint) ${RANGES[range]}
       and ${ALLOWED_REVISION}
       and not ${ACKED_REVISION('$4')}
     order by r.id
     limit $5`;
}

/**
 * The position of a consumer under an allow-list it has none for (new, or the allow-list changed), stored for the
 * polls after. Each allowed property's watermark says every revision of it up to there is acked, and the first
 * revision above it is not: so everything below the lowest of those first revisions is acked. When no property
 * has one, every revision of the account up to the highest watermark is (a revision committed later lands above,
 * revisions.ts). One probe per allowed property, once per allow-list (9000 properties: 140 ms on bench:volume's
 * large database), and after each ack of an account of few properties (advanceAccountPosition). Not called for a
 * consumer without any watermark (it never acked): that one starts at 0.
 */
async function rebuildPosition(tx: Db, consumerId: number, account: AccountScope, scope: string): Promise<number> {
  const [row] = await tx.query<{ at: number }>(
    `with marks as (
       select p.id, coalesce(w.acked_through, 0) as through from properties p
       left join booking_feed_watermarks w on w.consumer_id = $2 and w.property_id = p.id
       where p.customer_id = $1 and ${ALLOWED_PROPERTY}),
     start as (
       select coalesce(
         (select min(first.id) - 1 from marks cross join lateral (
            select r.id from booking_revisions r
            where r.property_id = any(array[marks.id]) and r.id > marks.through
            order by r.property_id, r.id limit 1) first),
         (select max(through) from marks),
         0) as at),
     stored as (
       insert into booking_feed_positions (consumer_id, scope, acked_through)
       select $2, $3, start.at from start where start.at > 0
       ${KEEP_GREATER_POSITION})
     select at from start`,
    [account.customerId, consumerId, scope],
  );
  return row?.at ?? 0;
}

/** What onGenericPlan reads beside its settings. */
interface PollState {
  /** The consumer's position under this allow-list; undefined when it has none (rebuildPosition's case). */
  stored: number | undefined;
  /** The latest revision id, when asked for (0 otherwise). */
  last: number;
  /** Whether every revision carries its customer and booking_revisions_customer is built (migration 1260). */
  filled: boolean;
}

/**
 * Runs `fn` in one transaction on generic plans, with JIT compilation off, and hands it the consumer's position
 * under this allow-list and whether the customer's range can be read, by the same statement that sets both. The generic plan is the shape these
 * statements are written for (feed.plan.test.ts): one walk of the primary key from the position, a probe per
 * revision. Left to choose, PostgreSQL kept planning a custom plan at every poll on the large database (its
 * estimate of the custom plans stayed below the generic one's): 0.25 ms of a caught-up poll's 0.8 (bench:volume,
 * the caught-up whole-account poll at 1.28x of the small database). And under the generic plan the planner
 * prices these scans as if they read the whole table (it cannot know they stop after `limit` rows), which is
 * past jit_above_cost on a large database: 38 ms compiling a 2 ms query. JIT off: the calendar turn's reason.
 */
function onGenericPlan<T>(
  db: Db,
  consumerId: number,
  scope: string,
  withLast: boolean,
  fn: (tx: Db, state: PollState) => Promise<T>,
): Promise<T> {
  return db.tx(async (tx) => {
    // The consumer's position under this allow-list rides on the settings' statement, no round trip more: the
    // stored one, or 0 for a consumer without a watermark (it never acked), or none (rebuildPosition's case).
    // With it, when asked, the latest revision id (accountFeedPage: whether the feed goes on past a span).
    const [row] = await tx.query<{ at: number | null; last?: number | null; filled: boolean | null }>(
      `select set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true),
        coalesce(
          (select acked_through from booking_feed_positions where consumer_id = $1 and scope = $2),
          (select 0 where not exists (select from booking_feed_watermarks w where w.consumer_id = $1))) as at,
        (select done from booking_revision_customer_fill) as filled
        ${withLast ? ', (select max(r.id) from booking_revisions r) as last' : ''}`,
      [consumerId, scope],
    );
    return fn(tx, { stored: row?.at ?? undefined, last: row?.last ?? 0, filled: row?.filled === true });
  });
}

/**
 * Moves the consumer's position up to just before its first unacked revision of the account, looking at
 * most POSITION_LOOKAHEAD revisions ahead (to the last one looked at when all of them are acked). One
 * statement, one snapshot, like advanceWatermark; concurrent advances keep the greater value.
 */
export async function advanceAccountPosition(db: Db, consumerId: number, account: AccountScope): Promise<void> {
  const scope = scopeOf(account.propertyIds);
  await onGenericPlan(db, consumerId, scope, false, async (tx, { stored, filled }) => {
    // Without the customer's range the look-ahead walks every customer's revisions up to the account's next one,
    // which for an account of few properties may be a million rows on: its position is rebuilt per property
    // instead, from the watermarks (the ack has just moved its property's), a probe of each property.
    if (!filled && fewProperties(account)) {
      await rebuildPosition(tx, consumerId, account, scope);
      return;
    }
    // The look-ahead appears twice on purpose: written once as a CTE it would be materialized whole (5000
    // rows) on every ack; as a subquery it is read lazily, and the first unacked revision ends the scan.
    const ahead = `(select r.id, ${ACKED_REVISION('$2')} as acked from booking_revisions r
      where r.id > (select at from start) ${filled ? RANGES.customer : RANGES.all} and ${ALLOWED_REVISION}
      order by r.id limit ${POSITION_LOOKAHEAD}) ahead`;
    // An ack before the first poll under a new allow-list: the position is built first, so the look-ahead does not
    // start from 0 and store a position far behind the one the watermarks give (every poll would walk up to it).
    if (stored === undefined) await rebuildPosition(tx, consumerId, account, scope);
    return tx.query(
      `with start as (
       select coalesce((select acked_through from booking_feed_positions where consumer_id = $2 and scope = $3), 0) as at),
     target as (
       select coalesce(
         (select ahead.id - 1 from ${ahead} where not ahead.acked order by ahead.id limit 1),
         (select max(ahead.id) from ${ahead})) as at)
     insert into booking_feed_positions (consumer_id, scope, acked_through)
     select $2, $3, t.at from target t where t.at > (select at from start)
     ${KEEP_GREATER_POSITION}`,
      [account.customerId, consumerId, scope],
    );
  });
}
