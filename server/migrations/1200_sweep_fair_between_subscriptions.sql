-- The dispatcher's sweep fair between subscriptions (server/webhooks/due-deliveries.ts). The sweep took the 1000
-- oldest due deliveries of all subscriptions, so one subscription with 1000 due (a customer's hung receiver after a
-- restart or a lost Redis) filled every pass and no other subscription's due deliveries were swept while it lasted.
-- It now gives each subscription with due deliveries its share: it finds them by one probe of this index per
-- subscription with unfinished deliveries (a skip scan), and reads each one's oldest due deliveries in order from it.
-- The key starts as deliveries_unfinished's did (the subscription's unfinished deliveries: health, delete, metrics
-- read that prefix), so this index replaces it: a relayed delivery still writes one entry into it, not two. Its
-- columns are none that a claim changes (it leaves next_attempt_at as it was), so a claim stays a HOT update
-- (migration 1120).
--
-- Online safety, as migration 1120: on small tables the index is built here in a moment; on more than a million
-- deliveries this migration refuses, naming the `create index concurrently` an operator runs first (with psql, while
-- the service serves); it then finds the index and only drops the old one.
do $$
begin
  if to_regclass('deliveries_unfinished_by_subscription') is null
    and (select reltuples from pg_class where oid = 'deliveries'::regclass) > 1000000 then
    raise exception 'deliveries is large: first run, outside a transaction: create index concurrently if not exists deliveries_unfinished_by_subscription on deliveries (subscription_id, next_attempt_at, id) where next_attempt_at is not null;';
  end if;
end $$;
create index if not exists deliveries_unfinished_by_subscription on deliveries (subscription_id, next_attempt_at, id)
  where next_attempt_at is not null;
drop index if exists deliveries_unfinished;
