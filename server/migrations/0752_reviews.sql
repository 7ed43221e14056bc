-- Reviews guests left on a channel (OTA), received through the inbound channel webhook or the operator API.
-- One reply per review; the reply goes back to the channel through review_reply_deliveries (an outbox:
-- written in the reply's transaction, sent by a worker with retries).
create table reviews (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  channel text not null,
  channel_review_id text not null,
  booking_id bigint references bookings(id),
  rating numeric(4, 2) not null,
  rating_scale int not null default 10,
  title text not null default '',
  body text not null default '',
  reviewer_name text not null default '',
  language text,
  stayed_on date,
  submitted_at timestamptz not null,
  reply_text text,
  replied_at timestamptz,
  replied_by text,
  received_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index reviews_channel_review on reviews (property_id, channel, channel_review_id);
create index reviews_property on reviews (property_id, submitted_at desc, id desc);

create table review_reply_deliveries (
  review_id bigint primary key references reviews(id),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  lease_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index review_reply_deliveries_due on review_reply_deliveries (next_attempt_at) where status = 'pending';
