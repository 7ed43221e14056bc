import type { Db } from './db/db.ts';

export interface DomainEvent {
  type: string;
  customerId: number;
  propertyId: number | null;
  data: Record<string, unknown>;
}

/**
 * Records a domain event in the caller's transaction (pass the tx handle), so webhook delivery can never
 * miss a committed change nor announce one that rolled back. The relay (server/webhooks) reads them.
 */
export async function recordEvent(tx: Db, event: DomainEvent): Promise<{ id: number; event_id: string }> {
  const [row] = await tx.sql<{ id: number; event_id: string }>`
    insert into outbox_events (type, customer_id, property_id, data)
    values (${event.type}, ${event.customerId}, ${event.propertyId}, ${event.data})
    returning id, event_id`;
  if (!row) throw new Error('outbox insert returned no row');
  return row;
}
