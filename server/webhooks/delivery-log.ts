import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, notFound } from '../core/http/api-error.ts';
import { pageMeta } from '../core/http/envelope.ts';
import { iso } from '../core/iso.ts';
import { isUuid } from '../core/resolve.ts';
import { unreadableEventTypes } from '../subscriptions/event-scopes.ts';
import {
  findSubscription,
  subjectSeenParams,
  subjectSeenSql,
  subscriptionSubject,
  visibleSubscriptionIds,
} from '../subscriptions/service.ts';

/** Spec 2.8. pending -> delivering -> delivered | failed -> delivering ... | dead. */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Redelivery reaches back this far (spec 6.2.7). */
export const REDELIVERY_WINDOW_MS = 90 * 24 * 3600_000;

export interface DeliveryRow {
  id: number;
  external_id: string;
  subscription_id: number;
  subscription_external_id: string;
  event_external_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  redelivery_of_external_id: string | null;
  /** The event's property (internal id), null for a customer-level event. */
  event_property_id: number | null;
}

/** A `status` filter value, or 422 errors.qc.deliveries.unknown_status. */
export function parseStatus(value: string | undefined): DeliveryStatus | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(DELIVERY_STATUSES as readonly string[]).includes(value))
    throw new ApiError('errors.qc.deliveries.unknown_status');
  return value as DeliveryStatus;
}

const SELECT = `
  select d.*, s.external_id as subscription_external_id, e.event_id as event_external_id,
    r.external_id as redelivery_of_external_id, e.property_id as event_property_id
  from deliveries d
  join subscriptions s on s.id = d.subscription_id
  join outbox_events e on e.id = d.outbox_event_id
  left join deliveries r on r.id = d.redelivery_of`;

export interface LogFilter {
  status?: DeliveryStatus;
  subscriptionIds?: number[];
}

/**
 * A delivery `d` of event `e` the principal may read: one of a customer-level event, or of a property of its
 * allow-list ($1). Seeing the subscription is not enough: its property_ids may have been narrowed since (or a
 * property disabled, its group paused), and its log still holds the events of the properties it named then.
 */
// A hashed subplan, not `= any($1)`: an account-scoped allow-list has thousands of ids, and a generic plan
// compares each row with the array one element after another.
const EVENT_ALLOWED = '(e.property_id is null or e.property_id in (select unnest($1::bigint[])))';

/** Whether the principal may read the delivery's event (EVENT_ALLOWED, for one row). */
function eventAllowed(principal: Principal, row: DeliveryRow): boolean {
  return row.event_property_id === null || principal.propertyIds.has(Number(row.event_property_id));
}

/**
 * The delivery log of the subscriptions the principal sees, newest first, without the deliveries of events whose
 * data its scopes do not read (a booking event without bookings.read: ../subscriptions/event-scopes.ts).
 */
export async function listDeliveries(
  deps: Deps,
  principal: Principal,
  filter: LogFilter,
  page: number,
  perPage: number,
) {
  const visible = await visibleSubscriptionIds(deps.db, principal);
  const ids = filter.subscriptionIds ? visible.filter((id) => filter.subscriptionIds?.includes(id)) : visible;
  const where = `d.subscription_id = any($2::bigint[]) and ($3::text is null or d.status = $3) and ${EVENT_ALLOWED}
    and ${subjectSeenSql(4)} and d.event_type <> all($7::text[])`;
  const params = [
    [...principal.propertyIds],
    ids,
    filter.status ?? null,
    ...subjectSeenParams(principal),
    unreadableEventTypes(principal),
  ];
  const [count] = await deps.db.query<{ n: number }>(
    `select count(*)::int as n from deliveries d join outbox_events e on e.id = d.outbox_event_id where ${where}`,
    params,
  );
  const rows = await deps.db.query<DeliveryRow>(
    `${SELECT} where ${where} order by d.created_at desc, d.id desc limit $8 offset $9`,
    [...params, perPage, (page - 1) * perPage],
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * GET /deliveries: one page of the log, newest first, filtered by a `status` value (422 unknown_status
 * otherwise) and a subscription id (404 when the principal does not see it).
 */
export async function deliveryLogPage(
  deps: Deps,
  principal: Principal,
  filter: { status?: string; subscription?: string },
  page: number,
  perPage: number,
) {
  const status = parseStatus(filter.status);
  const subscriptionIds = filter.subscription
    ? [(await findSubscription(deps.db, principal, filter.subscription)).id]
    : undefined;
  const { rows, total } = await listDeliveries(deps, principal, { status, subscriptionIds }, page, perPage);
  return { deliveries: rows.map(deliveryView), meta: pageMeta(total, page, perPage) };
}

/**
 * A delivery of a subscription the principal sees, deleted or not, of an event it may read (EVENT_ALLOWED); 404
 * otherwise (or for a malformed id). A deleted
 * subscription's too: the check before the body of a redelivery (./path-delivery.ts), which leaves to the write
 * whether the subscription still exists, so a keyed retry of a redelivery that went through replays its answer
 * after the subscription is deleted.
 */
export async function findDelivery(db: Db, principal: Principal, segment: string): Promise<DeliveryRow> {
  if (!isUuid(segment)) throw notFound();
  const [row] = await db.query<DeliveryRow>(`${SELECT} where d.external_id = $1::uuid and d.customer_id = $2`, [
    segment.toLowerCase(),
    principal.customerId,
  ]);
  if (!row || !eventAllowed(principal, row) || unreadableEventTypes(principal).includes(row.event_type)) {
    throw notFound();
  }
  await findSubscription(db, principal, row.subscription_external_id, true);
  // A subscription.* event is read only by who sees the subscription it is about (subjectSeenSql, for one row).
  const payload = JSON.parse(row.body) as { data?: Record<string, unknown> };
  const subject = subscriptionSubject(row.event_type, payload.data);
  if (subject !== undefined) await findSubscription(db, principal, subject, true);
  return row;
}

/**
 * Redelivery: a new delivery (new X-Qc-Delivery id, attempts from 1, the ladder anew) of the same event
 * body to the same subscription, signed with the current secret. A receiver that deduplicates on the
 * delivery id would drop a resend under the old id, so it gets a new one; the body's event `id` is
 * unchanged. Any delivery of the last 90 days qualifies, whatever its status. It counts against the
 * webhook-fanout budget like any delivery. A delivery a redelivery names stays in the log while the redelivery
 * does (retention/webhook-history.ts), so a keyed retry finds the original again.
 */
/** `inTx`: runs last in the new delivery's transaction (the route keeps its Idempotency-Key there). */
export async function redeliver(
  deps: Deps,
  original: DeliveryRow,
  inTx: (tx: Db, row: DeliveryRow) => Promise<void> = async () => {},
): Promise<DeliveryRow> {
  const now = deps.clock.now();
  if (now.getTime() - new Date(original.created_at).getTime() > REDELIVERY_WINDOW_MS) {
    throw new ApiError('errors.qc.deliveries.redelivery_window_passed');
  }
  return deps.db.tx(async (tx) => {
    const [inserted] = await tx.sql<{ id: number }>`
    insert into deliveries (subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, next_attempt_at, created_at, redelivery_of)
    select d.subscription_id, d.customer_id, d.outbox_event_id, d.event_type, d.body, s.secret_version, ${now}, ${now}, d.id
    from deliveries d join subscriptions s on s.id = d.subscription_id
    where d.id = ${original.id} and s.status = 'active' and s.deleted_at is null
    returning id`;
    if (!inserted) {
      // A deleted subscription is gone (404, as when it was deleted before the request); else it is disabled.
      const [gone] = await tx.sql<{ deleted: boolean }>`
        select deleted_at is not null as deleted from subscriptions where id = ${original.subscription_id}`;
      throw gone?.deleted ? notFound() : new ApiError('errors.qc.subscription.disabled');
    }
    const [row] = await tx.query<DeliveryRow>(`${SELECT} where d.id = $1`, [inserted.id]);
    if (!row) throw notFound();
    await inTx(tx, row);
    return row;
  });
}

export function deliveryView(row: DeliveryRow) {
  return {
    id: row.external_id,
    subscription_id: row.subscription_external_id,
    event_id: row.event_external_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    created_at: new Date(row.created_at).toISOString(),
    first_attempt_at: iso(row.first_attempt_at),
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: row.status === 'pending' || row.status === 'failed' ? iso(row.next_attempt_at) : null,
    delivered_at: iso(row.delivered_at),
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    redelivery_of: row.redelivery_of_external_id,
    payload: JSON.parse(row.body) as unknown,
  };
}
