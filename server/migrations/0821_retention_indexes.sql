-- What the retention pass (server/retention) needs to delete old rows by key rather than by scanning:
--  - a deleted delivery is checked against delivery_attempts.delivery_id and deliveries.redelivery_of, a
--    deleted outbox event against deliveries.outbox_event_id (foreign keys): without an index on the
--    referencing column, each of those checks reads the whole referencing table;
--  - booking_feed_watermarks.pruned_through: how far the consumer's acks behind its watermark are already
--    pruned, so a pass starts there instead of walking the property's acked history again.
--
-- Online safety: on small tables (the embedded default, tests, a young install) the indexes are built here
-- in a moment. On a populated database (more than a million deliveries and attempts) this migration refuses, naming the
-- three `create index concurrently` statements an operator runs first (with psql, while the service
-- serves); it then finds them and only adds the column (no rewrite: a constant default).
do $$
begin
  if (to_regclass('deliveries_outbox_event') is null or to_regclass('deliveries_redelivery_of') is null
      or to_regclass('delivery_attempts_delivery') is null)
    and (select sum(reltuples) from pg_class where oid in ('deliveries'::regclass, 'delivery_attempts'::regclass)) > 1000000 then
    raise exception 'deliveries is large: first run, outside a transaction: create index concurrently if not exists deliveries_outbox_event on deliveries (outbox_event_id); create index concurrently if not exists deliveries_redelivery_of on deliveries (redelivery_of) where redelivery_of is not null; create index concurrently if not exists delivery_attempts_delivery on delivery_attempts (delivery_id);';
  end if;
end $$;
create index if not exists deliveries_outbox_event on deliveries (outbox_event_id);
create index if not exists deliveries_redelivery_of on deliveries (redelivery_of) where redelivery_of is not null;
create index if not exists delivery_attempts_delivery on delivery_attempts (delivery_id);
alter table booking_feed_watermarks add column pruned_through bigint not null default 0;
