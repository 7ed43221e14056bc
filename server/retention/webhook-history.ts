import type { Db } from '../core/db/db.ts';
import { type Slice, walkFront } from './batches.ts';

/**
 * Retention of the webhook tables (spec 6.2: any delivery of the last 90 days can be redelivered). Oldest
 * first, each a walk over the front of the primary key (walkFront: ids grow with time), one statement a
 * slice. The foreign keys between them set the order: attempts, then deliveries, then events.
 */

/** Delivery attempts started before `before` (the delivery log shows the recent ones). */
export function pruneDeliveryAttempts(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  return walkFront(async (after, batch) => {
    const [slice] = await db.sql<Slice>`
      with front as materialized (
        select id, started_at from delivery_attempts where id > ${after} order by id limit ${batch}),
      gone as (
        delete from delivery_attempts a using front f where a.id = f.id and f.started_at < ${before} returning 1)
      select (select count(*) from gone)::int as removed, (select max(id) from front) as last,
        ((select count(*) from front) < ${batch} or exists (select from front where started_at >= ${before})) as done`;
    return slice ?? { removed: 0, last: null, done: true };
  }, signal);
}

/**
 * Finished deliveries (delivered, or dead after the retry ladder) created before `before`, with their
 * attempts; a delivery still named by a redelivery stays until the redelivery goes. Pending and retrying
 * deliveries are never removed.
 */
export function pruneDeliveries(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  return walkFront(
    (after, batch) =>
      db.tx(async (tx) => {
        const front = await tx.sql<{ id: number; ripe: boolean; young: boolean }>`
        select d.id, d.created_at >= ${before} as young,
          (d.created_at < ${before} and d.status in ('delivered', 'dead')
            and not exists (select from deliveries r where r.redelivery_of = d.id)) as ripe
        from (select id, created_at, status from deliveries where id > ${after} order by id limit ${batch}) d`;
        const doomed = front.filter((row) => row.ripe).map((row) => row.id);
        if (doomed.length) {
          await tx.sql`delete from delivery_attempts where delivery_id = any(${doomed}::bigint[])`;
          await tx.sql`delete from deliveries where id = any(${doomed}::bigint[])`;
        }
        return {
          removed: doomed.length,
          last: front.at(-1)?.id ?? null,
          done: front.length < batch || front.some((row) => row.young),
        };
      }),
    signal,
  );
}

/** Outbox events relayed before `before` that no remaining delivery names. Unrelayed events always stay. */
export function pruneOutboxEvents(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  return walkFront(async (after, batch) => {
    const [slice] = await db.sql<Slice>`
      with front as materialized (
        select id, created_at, relayed_at from outbox_events where id > ${after} order by id limit ${batch}),
      gone as (
        delete from outbox_events o using front f
        where o.id = f.id and f.relayed_at < ${before}
          and not exists (select from deliveries d where d.outbox_event_id = f.id)
        returning 1)
      select (select count(*) from gone)::int as removed, (select max(id) from front) as last,
        ((select count(*) from front) < ${batch} or exists (select from front where created_at >= ${before})) as done`;
    return slice ?? { removed: 0, last: null, done: true };
  }, signal);
}
