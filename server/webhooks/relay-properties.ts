import { ALLOWED_PROPERTY } from '../core/auth/authenticate.ts';
import type { Db } from '../core/db/db.ts';
import { eventSpec, type PropertyLists } from '../core/event-catalog.ts';
import { isUuid } from '../core/resolve.ts';

/** A property an account-level event lists in its data, as the relay's property filter reads it. */
export interface ListedProperty {
  id: number;
  customer_id: number;
  /** Active and outside paused groups: what a property-level event needs to be sent at all (relay.ts covers). */
  visible: boolean;
}

interface ListingEvent {
  type: string;
  data: Record<string, unknown>;
}

/** The property external ids an event's `listsProperties` fields name (lower case); none for other events. */
function listedIds(lists: PropertyLists | undefined, data: Record<string, unknown>): string[] {
  if (!lists) return [];
  return lists.fields.flatMap((field) => {
    const ids = data[field];
    return Array.isArray(ids)
      ? ids.filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase())
      : [];
  });
}

/**
 * The properties every event of the batch lists (catalogue_sync.completed, auto_email_template.*), by external id:
 * one query for the whole batch, none when no event of it lists any.
 */
export async function listedProperties(tx: Db, events: readonly ListingEvent[]): Promise<Map<string, ListedProperty>> {
  const ids = [...new Set(events.flatMap((e) => listedIds(eventSpec(e.type)?.listsProperties, e.data)))].filter(isUuid);
  if (ids.length === 0) return new Map();
  // ALLOWED_PROPERTY: the one predicate for "active, outside paused groups" that the allow-list uses too.
  const rows = await tx.query<ListedProperty & { external_id: string }>(
    `select p.external_id::text as external_id, p.id, p.customer_id, (${ALLOWED_PROPERTY}) as visible
     from properties p where p.external_id = any($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.external_id, { id: r.id, customer_id: r.customer_id, visible: r.visible }]));
}

/**
 * What one subscription is sent of an event's data, given whether it covers a listed property (by external id):
 * the data itself for an event that lists none; else by the event's `covered` rule (event-catalog.ts PropertyLists),
 * undefined when the subscription is not sent the event. An id is compared lower case, as listedProperties keys it.
 */
export function dataForSubscription(
  type: string,
  data: Record<string, unknown>,
  covers: (externalId: string) => boolean,
): Record<string, unknown> | undefined {
  const lists = eventSpec(type)?.listsProperties;
  if (!lists) return data;
  const listed = listedIds(lists, data);
  // A job that touched no property (every entry failed) names nothing to hide: sent to all, as before.
  if (listed.length === 0 || lists.covered === 'all') return listed.every(covers) ? data : undefined;
  const narrowed: Record<string, unknown> = { ...data };
  let kept = 0;
  for (const field of lists.fields) {
    const ids = data[field];
    if (!Array.isArray(ids)) continue;
    const seen = ids.filter((id) => typeof id === 'string' && covers(id.toLowerCase()));
    narrowed[field] = seen;
    kept += seen.length;
  }
  return kept > 0 ? narrowed : undefined;
}
