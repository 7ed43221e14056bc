import { CREDENTIAL_ALLOWED } from '../core/auth/authenticate.ts';
import type { Principal } from '../core/auth/principal.ts';
import { randomSecret } from '../core/auth/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import { isUuid } from '../core/resolve.ts';
import { requireEventScopes } from './event-scopes.ts';
import type { SubscriptionChanges } from './input.ts';

export interface SubscriptionRow {
  id: number;
  external_id: string;
  customer_id: number;
  created_by: number;
  url: string;
  event_types: string[];
  property_ids: number[];
  all_properties: boolean;
  secret: string;
  secret_version: number;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  status: 'active' | 'disabled';
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** External ids of property_ids (filled by the queries below). */
  property_external_ids: string[];
}

/** Spec 8.2: the old secret stays valid 24 hours after a rotation. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 3600_000;

function newSecret(): string {
  return `whsec_${randomSecret(32)}`;
}

/**
 * Who sees a subscription: its customer's credentials holding subscriptions.manage, limited by the
 * property allow-list: the creating credential always; another one when every property the
 * subscription covers is in its allow-list (an all-properties subscription: account-scoped ones only).
 * Anything else is 404, like a property outside the allow-list. Parameters $1..$4 come from visibleTo().
 */
function seenBy(customer: string, client: string, accountScoped: string, allowed: string): string {
  return `s.customer_id = ${customer}
  and (s.created_by = ${client} or case when s.all_properties then ${accountScoped} else s.property_ids <@ ${allowed} end)`;
}
const SEEN = seenBy('$1', '$2', '$3::boolean', '$4::bigint[]');
/** The subscriptions of SEEN that are not deleted: what the API shows. */
const VISIBLE = `${SEEN} and s.deleted_at is null`;
const COLUMNS = `s.*, array(select p.external_id::text from properties p where p.id = any(s.property_ids) order by p.id)
  as property_external_ids`;

function visibleTo(principal: Principal): unknown[] {
  return [principal.customerId, principal.clientPk, principal.accountScoped, [...principal.propertyIds]];
}

export async function listSubscriptions(db: Db, principal: Principal, page: number, perPage: number) {
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from subscriptions s where ${VISIBLE}`,
    visibleTo(principal),
  );
  const rows = await db.query<SubscriptionRow>(
    `select ${COLUMNS} from subscriptions s where ${VISIBLE} order by s.created_at, s.id limit $5 offset $6`,
    [...visibleTo(principal), perPage, (page - 1) * perPage],
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * Whether an event `e` is one the principal may read by its subject: a `subscription.*` event names a subscription
 * in `data.subscription_id`, and only who sees that subscription (SEEN, deleted too) reads the event. $1 holds the
 * principal's allow-list; `first` is the position of visibleTo(principal)'s customer, client and account scope.
 */
export function subjectSeenSql(first: number): string {
  const seen = seenBy(`$${first}`, `$${first + 1}`, `$${first + 2}::boolean`, '$1::bigint[]');
  // The case guards the cast (an or does not order its operands): an event naming no subscription hides nothing.
  const subject = `(case when e.data->>'subscription_id' ~* '${UUID_PATTERN}' then e.data->>'subscription_id' end)`;
  return `(e.type not like 'subscription.%' or ${subject} is null or exists (
    select from subscriptions s where s.external_id = ${subject}::uuid and ${seen}))`;
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** The subscription (external id) a `subscription.*` event is about, as subjectSeenSql reads it; else undefined. */
export function subscriptionSubject(type: string, data: Record<string, unknown> | undefined): string | undefined {
  if (!type.startsWith('subscription.')) return undefined;
  const id = data?.subscription_id;
  return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : undefined;
}

/** The values subjectSeenSql(first) reads from `first` on. */
export function subjectSeenParams(principal: Principal): unknown[] {
  return visibleTo(principal).slice(0, 3);
}

/**
 * Of the `subscription.*` events' subjects (external ids), which each receiving subscription may be sent: those
 * its creating credential sees by SEEN, its allow-list resolved live as on a request. Keys `<receiver>:<subject>`.
 */
export async function subjectsSeenByCreators(db: Db, receivers: number[], subjects: string[]): Promise<Set<string>> {
  const rows = await db.query<{ receiver: number; subject: string }>(
    `select r.id as receiver, s.external_id::text as subject
     from subscriptions r join api_clients c on c.id = r.created_by
     cross join lateral (select ${CREDENTIAL_ALLOWED} as allowed) a
     join subscriptions s on s.external_id = any($2::uuid[])
     where r.id = any($1::bigint[]) and ${seenBy('r.customer_id', 'r.created_by', 'c.account_scoped', 'a.allowed')}`,
    [receivers, subjects],
  );
  return new Set(rows.map((r) => `${r.receiver}:${r.subject}`));
}

/** Internal ids of every subscription the principal sees (delivery log and health). */
export async function visibleSubscriptionIds(db: Db, principal: Principal): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select s.id from subscriptions s where ${VISIBLE}`,
    visibleTo(principal),
  );
  return rows.map((r) => r.id);
}

/**
 * The subscription with this id the principal sees; 404 otherwise. `deletedToo` finds a deleted one as well: the
 * check a write makes before its body (./path-subscription.ts), which leaves to the write whether it still exists.
 */
export async function findSubscription(
  db: Db,
  principal: Principal,
  segment: string,
  deletedToo = false,
): Promise<SubscriptionRow> {
  if (!isUuid(segment)) throw notFound();
  const [row] = await db.query<SubscriptionRow>(
    `select ${COLUMNS} from subscriptions s where ${deletedToo ? SEEN : VISIBLE} and s.external_id = $5::uuid`,
    [...visibleTo(principal), segment.toLowerCase()],
  );
  if (!row) throw notFound();
  return row;
}

async function reload(tx: Db, id: number): Promise<SubscriptionRow> {
  const [row] = await tx.query<SubscriptionRow>(`select ${COLUMNS} from subscriptions s where s.id = $1`, [id]);
  if (!row) throw notFound();
  return row;
}

function eventData(row: SubscriptionRow) {
  return { subscription_id: row.external_id, url: row.url, event_types: row.event_types, status: row.status };
}

/** `inTx`: runs last in the subscription's transaction (the route keeps its Idempotency-Key there). */
export async function createSubscription(
  deps: Deps,
  principal: Principal,
  input: SubscriptionChanges,
  inTx: (tx: Db, made: { row: SubscriptionRow; secret: string }) => Promise<void> = async () => {},
) {
  const now = deps.clock.now();
  const secret = newSecret();
  return deps.db.tx(async (tx) => {
    const [inserted] = await tx.sql<{ id: number }>`
      insert into subscriptions (customer_id, created_by, url, event_types, property_ids, all_properties, secret, created_at, updated_at)
      values (${principal.customerId}, ${principal.clientPk}, ${input.url}, ${input.eventTypes}::text[],
        ${input.propertyIds ?? []}::bigint[], ${input.allProperties ?? false}, ${secret}, ${now}, ${now})
      returning id`;
    if (!inserted) throw new Error('subscription insert returned no row');
    const row = await reload(tx, inserted.id);
    const event = await recordEvent(tx, {
      type: 'subscription.created',
      customerId: row.customer_id,
      propertyId: null,
      data: eventData(row),
    });
    await tx.sql`update subscriptions set since_event_id = ${event.id} where id = ${row.id}`;
    await inTx(tx, { row, secret });
    return { row, secret };
  });
}

/**
 * Only the fields given change. A PATCH that changes nothing (no field, only undeclared ones, or the values the
 * subscription already has) answers it as it is: updated_at kept and no `subscription.updated`, since an event
 * records the change it announces. The events the subscription names once changed must be ones the credential may
 * read (./event-scopes.ts), also when the body leaves them as they are: a new URL for another credential's booking
 * subscription would send its bookings wherever this credential chose.
 */
export async function updateSubscription(
  deps: Deps,
  principal: Principal,
  segment: string,
  input: SubscriptionChanges,
) {
  const now = deps.clock.now();
  return deps.db.tx(async (tx) => {
    const current = await findSubscription(tx, principal, segment);
    requireEventScopes(principal, input.eventTypes ?? current.event_types);
    const changed = await tx.sql`
      with next as (
        select coalesce(${input.url ?? null}::text, url) as url,
          coalesce(${input.eventTypes ?? null}::text[], event_types) as event_types,
          coalesce(${input.propertyIds ?? null}::bigint[], property_ids) as property_ids,
          coalesce(${input.allProperties ?? null}::boolean, all_properties) as all_properties
        from subscriptions where id = ${current.id}
      )
      update subscriptions s set url = next.url, event_types = next.event_types, property_ids = next.property_ids,
        all_properties = next.all_properties, updated_at = ${now}
      from next
      where s.id = ${current.id}
        and (s.url, s.event_types, s.property_ids, s.all_properties)
          is distinct from (next.url, next.event_types, next.property_ids, next.all_properties)
      returning s.id`;
    if (changed.length === 0) return current;
    const row = await reload(tx, current.id);
    await recordEvent(tx, {
      type: 'subscription.updated',
      customerId: row.customer_id,
      propertyId: null,
      data: eventData(row),
    });
    return row;
  });
}

/** Soft delete: outstanding deliveries die; the rows stay (deliveries reference them), hidden from the API. */
export async function deleteSubscription(deps: Deps, principal: Principal, segment: string) {
  const now = deps.clock.now();
  return deps.db.tx(async (tx) => {
    const row = await findSubscription(tx, principal, segment);
    await tx.sql`update subscriptions set deleted_at = ${now}, updated_at = ${now} where id = ${row.id}`;
    await tx.sql`
      update deliveries set status = 'dead', next_attempt_at = null, lease_until = null, last_error = 'subscription_deleted'
      -- next_attempt_at: what the partial index of unfinished deliveries holds (migration 1120).
      where subscription_id = ${row.id} and next_attempt_at is not null and status in ('pending', 'failed', 'delivering')`;
    await recordEvent(tx, {
      type: 'subscription.deleted',
      customerId: row.customer_id,
      propertyId: null,
      data: eventData(row),
    });
    return row;
  });
}

/**
 * A new secret, answered once. The old one becomes `previous_secret` for 24 hours: retries of deliveries
 * made before the rotation stay signed with it until then (see webhooks/deliver.ts signingSecret).
 */
export async function rotateSecret(deps: Deps, principal: Principal, segment: string) {
  const now = deps.clock.now();
  const secret = newSecret();
  const expires = new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_MS);
  return deps.db.tx(async (tx) => {
    const current = await findSubscription(tx, principal, segment);
    await tx.sql`
      update subscriptions set previous_secret = secret, previous_secret_expires_at = ${expires}, secret = ${secret},
        secret_version = secret_version + 1, secret_rotated_at = ${now}, updated_at = ${now}
      where id = ${current.id}`;
    const row = await reload(tx, current.id);
    await recordEvent(tx, {
      type: 'subscription.secret_rotated',
      customerId: row.customer_id,
      propertyId: null,
      data: { subscription_id: row.external_id, previous_secret_expires_at: expires.toISOString() },
    });
    return { row, secret };
  });
}

/**
 * Re-enables a disabled subscription and clears its failure streak. Deliveries parked while it was
 * disabled are due again and go out with the next sweep. Enabling an active subscription changes nothing.
 */
export async function enableSubscription(deps: Deps, principal: Principal, segment: string) {
  const now = deps.clock.now();
  return deps.db.tx(async (tx) => {
    const current = await findSubscription(tx, principal, segment);
    const changed = await tx.sql`
      update subscriptions set status = 'active', disabled_at = null, disabled_reason = null, failing_since = null, updated_at = ${now}
      where id = ${current.id} and status = 'disabled'
      returning id`;
    if (changed.length === 0) return current;
    const row = await reload(tx, current.id);
    await recordEvent(tx, {
      type: 'subscription.enabled',
      customerId: row.customer_id,
      propertyId: null,
      data: eventData(row),
    });
    return row;
  });
}
