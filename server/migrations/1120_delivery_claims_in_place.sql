-- A delivery's claim as a HOT update (issue "speed", bench:webhooks). A claim sets status, attempts, lease_until
-- and the attempt times; status was in the predicate of three partial indexes (due, leased, outstanding) and
-- lease_until the key of one, so every claim wrote a new entry into each of the table's indexes (seven of nine
-- for a delivering row) and the success record did it again. Now no index reads those columns: an unfinished
-- delivery (pending, delivering, failed) is one whose next_attempt_at is set (delivered and dead clear it, a
-- claim leaves it as it was: the time it became due, before its lease ends), so both partial indexes test that
-- column instead, and the leased index goes (a delivering row is found by its next_attempt_at, then its lease
-- is checked). The claim then rewrites the row on its own page with no index entry (HOT) when the page has
-- room: filled to half at most, a page has room for one new version of every row on it, whatever their size
-- (new pages only; rows already stored update as before). In bench/webhooks.ts the claim's update of 200 rows
-- took 0.9 ms with 200 HOT of 200 against 3.4-5.2 ms (fillfactor 60: 135 of 200).
--
-- An attempt's subscription is its delivery's, whose own key already references subscriptions (which are
-- never deleted, only marked so): the second check of every attempt row, and its lock on the subscription row,
-- went.
--
-- Online safety: on small tables (the embedded default, tests, a young install) the two indexes are built here
-- in a moment. On a populated table (more than a million deliveries) this migration refuses, naming the two
-- `create index concurrently` statements an operator runs first (with psql, while the service serves); it then
-- finds them and only drops the old indexes, which waits for no more than the transactions in flight.
do $$
begin
  if (to_regclass('deliveries_next_attempt') is null or to_regclass('deliveries_unfinished') is null)
    and (select reltuples from pg_class where oid = 'deliveries'::regclass) > 1000000 then
    raise exception 'deliveries is large: first run, outside a transaction: create index concurrently if not exists deliveries_next_attempt on deliveries (next_attempt_at) where next_attempt_at is not null; create index concurrently if not exists deliveries_unfinished on deliveries (subscription_id) where next_attempt_at is not null;';
  end if;
end $$;
create index if not exists deliveries_next_attempt on deliveries (next_attempt_at) where next_attempt_at is not null;
create index if not exists deliveries_unfinished on deliveries (subscription_id) where next_attempt_at is not null;
drop index deliveries_due;
drop index deliveries_leased;
drop index deliveries_outstanding;
alter table deliveries set (fillfactor = 50);
alter table delivery_attempts drop constraint delivery_attempts_subscription_id_fkey;
