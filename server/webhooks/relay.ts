import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { subscriptionNamesFor } from '../core/event-catalog.ts';
import { subjectsSeenByCreators, subscriptionSubject } from '../subscriptions/service.ts';
import { fitsCatalogue } from './catalogue-check.ts';
import { dataForSubscription, type ListedProperty, listedProperties } from './relay-properties.ts';
import { type Creator, withheldFrom } from './withheld.ts';

/**
 * The outbox relay: turns committed outbox events into deliveries, one per matching active subscription,
 * and marks the events relayed, in one transaction. `for update skip locked` lets several processes relay
 * at once without taking the same events; the unique (subscription, event) index is the backstop.
 *
 * A subscription matches an event committed since its creation (its own subscription.created included)
 * when it subscribes to the event type (or an alias of it) and either the event has no property
 * (customer-level events such as subscription.*), or the property is active, outside paused groups, and in the
 * subscription's property_ids or the subscription follows all the customer's properties. A subscription.* event
 * reaches a subscription only when its creating credential sees the subscription the event is about (subjectsSeen).
 * An event whose data needs a scope (a booking event: bookings.read) reaches a subscription only while its creating
 * credential holds that scope and is not revoked (withheld.ts): read with the subscriptions, no query per event.
 * An account-level event whose data lists properties (catalogue_sync.completed, auto_email_template.*) is sent
 * only what the subscription's property filter covers, by the same rule as a property-level event
 * (relay-properties.ts): its listed properties are read once for the batch.
 * Disabled subscriptions get no new deliveries: webhooks are a trigger to poll the feed, which holds
 * everything that happened meanwhile. The subscriptions are share-locked until the deliveries commit, so a
 * delete (which kills its outstanding deliveries) cannot slip between reading them and writing a delivery.
 */
interface EventRow {
  id: number;
  event_id: string;
  type: string;
  customer_id: number;
  property_id: number | null;
  data: Record<string, unknown>;
  created_at: Date;
  property_external_id: string | null;
  property_visible: boolean | null;
}

interface SubscriptionRow {
  id: number;
  customer_id: number;
  event_types: string[];
  property_ids: number[];
  all_properties: boolean;
  secret_version: number;
  since_event_id: number;
  creator_scopes: string[];
  creator_revoked: boolean;
}

export interface NewDelivery {
  id: number;
  subscriptionId: number;
  nextAttemptAt: Date;
}

export const RELAY_BATCH = 500;
/**
 * The first batch of a relay: a 500-event batch is one 30-50 ms transaction before its first delivery can leave
 * (bench/webhooks.ts), a 32-event one a few milliseconds. Later batches grow fourfold to RELAY_BATCH.
 */
export const RELAY_FIRST_BATCH = 32;

export async function relayBatch(
  deps: Deps,
  limit = RELAY_BATCH,
): Promise<{ events: number; deliveries: NewDelivery[] }> {
  const now = deps.clock.now();
  return deps.db.tx(async (tx) => {
    const events = await tx.sql<EventRow>`
      select e.id, e.event_id, e.type, e.customer_id, e.property_id, e.data, e.created_at,
        p.external_id as property_external_id, p.visible as property_visible
      from outbox_events e
      -- A probe per event by primary key (lateral): as a join, the generic plan merged the events with every
      -- property of the database in key order (10000 properties, 3.4 ms a pass; bench:volume).
      left join lateral (
        select p.external_id, (p.status = 'active' and not coalesce(g.paused, false)) as visible
        from properties p left join property_groups g on g.id = p.group_id
        where p.id = e.property_id limit 1) p on true
      where e.relayed_at is null
      order by e.id limit ${limit}
      for update of e skip locked`;
    if (events.length === 0) return { events: 0, deliveries: [] };

    const customers = [...new Set(events.map((e) => e.customer_id))];
    const found = await tx.sql<SubscriptionRow>`
      select s.id, s.customer_id, s.event_types, s.property_ids, s.all_properties, s.secret_version, s.since_event_id,
        c.scopes as creator_scopes, c.revoked_at is not null as creator_revoked
      from subscriptions s join api_clients c on c.id = s.created_by
      where s.customer_id = any(${customers}::bigint[]) and s.status = 'active' and s.deleted_at is null
      for share of s`;
    const subscriptions = found.map((s) => ({
      ...s,
      creator: { scopes: new Set(s.creator_scopes), revoked: s.creator_revoked } satisfies Creator,
    }));

    const rows = {
      subscription: [] as number[],
      customer: [] as number[],
      event: [] as number[],
      type: [] as string[],
      body: [] as string[],
      version: [] as number[],
    };
    const subjectSeen = await subjectsSeen(tx, events, subscriptions);
    const listed = await listedProperties(tx, events);
    for (const event of events) {
      checkAgainstCatalogue(deps, event);
      const names = subscriptionNamesFor(event.type);
      const subject = subscriptionSubject(event.type, event.data);
      for (const s of subscriptions) {
        if (s.customer_id !== event.customer_id || !covers(s, event)) continue;
        if (subject !== undefined && !subjectSeen.has(`${s.id}:${subject}`)) continue;
        // The event's own name wins; an alias name is used only when the subscription chose the alias.
        const name = names.find((n) => s.event_types.includes(n));
        if (!name || withheldFrom(s.creator, event.type)) continue;
        const data = dataForSubscription(event.type, event.data, (id) => coversListed(s, event, listed.get(id)));
        if (!data) continue;
        rows.subscription.push(s.id);
        rows.customer.push(event.customer_id);
        rows.event.push(event.id);
        rows.type.push(name);
        rows.body.push(deliveryBody(event, name, data));
        rows.version.push(s.secret_version);
      }
    }

    const deliveries = rows.body.length
      ? await tx.sql<{ id: number; subscription_id: number; next_attempt_at: Date }>`
          insert into deliveries (subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, next_attempt_at, created_at)
          select s, c, e, t, b, v, ${now}::timestamptz, ${now}::timestamptz
          from unnest(${rows.subscription}::bigint[], ${rows.customer}::bigint[], ${rows.event}::bigint[],
                      ${rows.type}::text[], ${rows.body}::text[], ${rows.version}::int[]) as x(s, c, e, t, b, v)
          on conflict (subscription_id, outbox_event_id) where redelivery_of is null do nothing
          returning id, subscription_id, next_attempt_at`
      : [];
    await tx.sql`update outbox_events set relayed_at = ${now} where id = any(${events.map((e) => e.id)}::bigint[])`;
    return {
      events: events.length,
      deliveries: deliveries.map((d) => ({
        id: d.id,
        subscriptionId: Number(d.subscription_id),
        nextAttemptAt: d.next_attempt_at,
      })),
    };
  });
}

/**
 * Per receiving subscription, the subjects (subscription ids) of the batch's `subscription.*` events it may be sent,
 * as `<receiver>:<subject>`. An event's subscription id and URL (which may carry a token in its query) reach only the
 * subscriptions whose creating credential sees that subscription on the API: a narrowed credential's subscription is
 * not sent another credential's that `GET /subscriptions/{id}` answers it 404.
 */
async function subjectsSeen(tx: Db, events: EventRow[], subscriptions: SubscriptionRow[]): Promise<Set<string>> {
  const subjects = new Set<string>();
  for (const e of events) {
    const subject = subscriptionSubject(e.type, e.data);
    if (subject !== undefined) subjects.add(subject);
  }
  const receivers = subscriptions.filter((s) => s.event_types.some((n) => n.startsWith('subscription.')));
  if (subjects.size === 0 || receivers.length === 0) return new Set();
  return subjectsSeenByCreators(
    tx,
    receivers.map((s) => s.id),
    [...subjects],
  );
}

function covers(s: SubscriptionRow, event: EventRow): boolean {
  if (event.id < s.since_event_id) return false;
  if (event.property_id === null) return true;
  return coversProperty(s, event.property_id, event.property_visible === true);
}

function coversProperty(s: SubscriptionRow, propertyId: number, visible: boolean): boolean {
  // A disabled property, or one in a paused group, receives nothing (README, Property groups), whichever way the
  // subscription names it: a list of properties kept sending what the allow-list and the feed already hid.
  if (!visible) return false;
  return s.all_properties || s.property_ids.includes(propertyId);
}

/** Whether the subscription would be sent a property-level event of a property an account-level event lists. */
function coversListed(s: SubscriptionRow, event: EventRow, property: ListedProperty | undefined): boolean {
  return (
    property !== undefined &&
    property.customer_id === event.customer_id &&
    coversProperty(s, property.id, property.visible)
  );
}

/**
 * Spec 6.1 body. property_id is the property's external id (null for customer-level events); data is the
 * subscription's copy (dataForSubscription).
 */
function deliveryBody(event: EventRow, type: string, data: Record<string, unknown>): string {
  return JSON.stringify({
    id: event.event_id,
    type,
    created_at: new Date(event.created_at).toISOString(),
    property_id: event.property_external_id,
    data,
  });
}

// The catalogue promises each event's data shape; an emitter that drifts from it is logged, not dropped.
function checkAgainstCatalogue(deps: Deps, event: EventRow): void {
  const fits = fitsCatalogue(event.type, event.data);
  if (fits === undefined)
    deps.log.warn('event type missing from the event catalogue', { type: event.type, event_id: event.event_id });
  else if (!fits) {
    deps.log.warn('event data does not match the event catalogue', { type: event.type, event_id: event.event_id });
  }
}
