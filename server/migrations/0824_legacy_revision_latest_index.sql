-- getBookings reads each future booking's latest legacy revision for its version, ack and digest
-- (legacy/booking/legacy-revisions.ts): an index holding them answers it without touching the revision's
-- row and its content (bench:volume: 100 ms -> 37 ms for 10000 future bookings on a loaded machine).
-- Online safety: on more than a million legacy revisions this migration refuses until an operator has run
-- the `create index concurrently` its message names (psql, while the service serves).
do $$
begin
  if to_regclass('legacy_booking_revisions_latest') is null
    and (select reltuples from pg_class where oid = 'legacy_booking_revisions'::regclass) > 1000000 then
    raise exception 'legacy_booking_revisions is large: first run, outside a transaction: create index concurrently if not exists legacy_booking_revisions_latest on legacy_booking_revisions (booking_id, seq) include (booking_version, acked_at, content_md5);';
  end if;
end $$;
create index if not exists legacy_booking_revisions_latest on legacy_booking_revisions (booking_id, seq)
  include (booking_version, acked_at, content_md5);
