-- An account-scoped feed consumer's position (server/bookings/feed-account.ts): every revision of its
-- allowed properties up to acked_through is acked by it. `scope` fingerprints the allow-list the position
-- was built for; a different allow-list does not use it. Derived from booking_revision_acks, only moves
-- forward for one scope. A new, empty table: nothing to backfill.
create table booking_feed_positions (
  consumer_id bigint primary key references api_clients(id),
  scope text not null,
  acked_through bigint not null
);
