-- Per consumer and property, an id through which every revision of that property is acked by that consumer:
-- the feed starts its scan there instead of walking the acked history (booking_revision_acks stays the
-- record of each ack; this is derived from it and only ever moves forward).
create table booking_feed_watermarks (
  consumer_id bigint not null references api_clients(id),
  property_id bigint not null references properties(id),
  acked_through bigint not null,
  primary key (consumer_id, property_id)
);
