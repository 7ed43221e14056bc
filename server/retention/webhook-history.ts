import type { Db } from '../core/db/db.ts';
import { inBatches } from './batches.ts';

/**
 * Retention of the webhook tables (spec 6.2: any delivery of the last 90 days can be redelivered). Oldest
 * first, in id order (ids grow with time, so each batch reads the front of the primary key), each batch
 * its own statement. The foreign keys between them set the order: attempts, then deliveries, then events.
 */

/** Delivery attempts started before `before` (the delivery log shows the recent ones). */
export function pruneDeliveryAttempts(db: Db, before: Date): Promise<number> {
  return inBatches(
    (batch) =>
      db.affected`
        delete from delivery_attempts where id = any(array(
          select id from delivery_attempts where started_at < ${before} order by id limit ${batch}))`,
  );
}

/**
 * Finished deliveries (delivered, or dead after the retry ladder) created before `before`, with their
 * attempts; a delivery still named by a redelivery stays until the redelivery goes. Pending and retrying
 * deliveries are never removed.
 */
export function pruneDeliveries(db: Db, before: Date): Promise<number> {
  return inBatches((batch) =>
    db.tx(async (tx) => {
      const doomed = (
        await tx.sql<{ id: number }>`
          select d.id from deliveries d
          where d.created_at < ${before} and d.status in ('delivered', 'dead')
            and not exists (select from deliveries r where r.redelivery_of = d.id)
          order by d.id limit ${batch}`
      ).map((r) => r.id);
      if (!doomed.length) return 0;
      await tx.sql`delete from delivery_attempts where delivery_id = any(${doomed}::bigint[])`;
      await tx.sql`delete from deliveries where id = any(${doomed}::bigint[])`;
      return doomed.length;
    }),
  );
}

/** Outbox events relayed before `before` that no remaining delivery names. Unrelayed events always stay. */
export function pruneOutboxEvents(db: Db, before: Date): Promise<number> {
  return inBatches(
    (batch) =>
      db.affected`
        delete from outbox_events where id = any(array(
          select o.id from outbox_events o
          where o.relayed_at < ${before}
            and not exists (select from deliveries d where d.outbox_event_id = o.id)
          order by o.id limit ${batch}))`,
  );
}
