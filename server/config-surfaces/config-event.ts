import type { DomainEvent } from '../core/outbox.ts';
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
