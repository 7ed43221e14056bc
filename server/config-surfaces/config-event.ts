import type { Db } from '../core/db/db.ts';
import { type DomainEvent, recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';

/**
 * A configuration record's event for `recordEvent` (server/core/outbox.ts): the property's customer and id,
 * and `data` of `property_id` (external) plus the fields given beside `type` (the record's id first).
 */
export function configEvent(
  property: PropertyRow,
  { type, ...data }: { type: string; [field: string]: unknown },
): DomainEvent {
  return {
    type,
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, ...data },
  };
}

/**
 * The record a configuration write returned, once its event (`<entity>.created` or `.updated`, spelled out at
 * the call so the event catalogue test finds it) is recorded: `data` names the record (`<entity>_id`), then
 * `fields` of it. A write that returns no row is a bug, not an answer.
 */
export async function recordWrite<R extends { external_id: string }>(
  tx: Db,
  property: PropertyRow,
  event: { type: `${string}.created` | `${string}.updated` },
  row: R | undefined,
  fields: Record<string, unknown> = {},
): Promise<R> {
  if (!row) throw new Error(`${event.type}: the write returned no row`);
  const entity = event.type.slice(0, event.type.indexOf('.'));
  await recordEvent(tx, configEvent(property, { type: event.type, [`${entity}_id`]: row.external_id, ...fields }));
  return row;
}
