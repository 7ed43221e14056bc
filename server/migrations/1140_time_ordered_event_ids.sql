-- Webhook ids in time order (issue 24, bench:volume "webhook relay pass"): outbox_events.event_id and
-- deliveries.external_id were random (v4) UUIDs, and each has a unique index. Every relayed event inserts a
-- delivery (one new entry in deliveries_external_id_key) and marks its event relayed (an update that cannot be
-- HOT, relayed_at being in outbox_events_unrelayed's predicate: one new entry in outbox_events_event_id_key).
-- A random key lands on a random leaf: with a million events each of those entries is a leaf page of its own,
-- read and, after a checkpoint, logged whole, so a relay pass grew with the history kept. Time-ordered (v7
-- layout) UUIDs land on the rightmost leaves, as the bigserial keys beside them do: constant per event.
-- They stay UUID strings (spec: ids are UUIDs) and reveal no more than the body's created_at already does.
-- Plain SQL over core functions, so the embedded database (PGlite) runs it as PostgreSQL does.
create or replace function qc_time_ordered_uuid() returns uuid language sql volatile parallel safe as $$
  -- A random (v4) UUID whose first 48 bits become the Unix time in milliseconds and whose version is 7
  -- (bits 52 and 53 set turn version 4 into 7); the variant and the other 74 random bits stay as they were.
  select encode(set_bit(set_bit(
    overlay(uuid_send(gen_random_uuid())
      placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
      from 1 for 6),
    52, 1), 53, 1), 'hex')::uuid
$$;

alter table outbox_events alter column event_id set default qc_time_ordered_uuid();
alter table deliveries alter column external_id set default qc_time_ordered_uuid();
