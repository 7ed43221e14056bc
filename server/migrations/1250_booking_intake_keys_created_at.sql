-- Booking intake keys (0800, 1020) are kept for the Idempotency-Key's 24 hours, then deleted oldest first by the
-- retention pass (server/retention/booking-intake-keys.ts). They were never deleted: one row per keyed booking ever
-- made. Without this index each batch of that delete read the whole table. A table this large already is left to
-- the operator to index without blocking bookings, as 0821 does for deliveries.
do $$
begin
  if to_regclass('booking_intake_keys_created_at') is null
    and (select reltuples from pg_class where oid = 'booking_intake_keys'::regclass) > 1000000 then
    raise exception 'booking_intake_keys is large: first run, outside a transaction: create index concurrently if not exists booking_intake_keys_created_at on booking_intake_keys (created_at);';
  end if;
end $$;
create index if not exists booking_intake_keys_created_at on booking_intake_keys (created_at);
