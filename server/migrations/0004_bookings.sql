-- Bookings the platform took, their frozen revisions (the feed) and per-consumer acknowledgements.

-- ids are the platform's booking ids; the legacy facade exposes them as booking_id (ids below 161300 are
-- old-generation bookings with MD5 revision ids).
create sequence bookings_id_seq start with 161300;
create table bookings (
  id bigint primary key default nextval('bookings_id_seq'),
  property_id bigint not null references properties(id),
  external_booking_id text not null unique,
  external_revision_id text,
  source_channel text not null,
  status text not null check (status in ('requested', 'tentative', 'confirmed', 'cancelled', 'no_show', 'checked_in', 'checked_out')),
  -- Stored in clear for the platform; masked in every partner answer (spec 1, item 9).
  guest_first_name text not null default '',
  guest_last_name text not null default '',
  guest_email text not null default '',
  guest_phone text not null default '',
  checkin_date date not null,
  checkout_date date not null,
  adults int not null default 1,
  children int not null default 0,
  currency_code char(3) not null,
  total_amount numeric(14, 2) not null default 0,
  processing_state text not null default 'processed',
  internal_comment text,
  -- The payment and cancellation policies in effect when the booking was made.
  policy_snapshot jsonb not null default '{}',
  cancellation jsonb,
  no_show_at timestamptz,
  cancelled_at timestamptz,
  -- Set when the booking was imported silently on first connection (no revisions emitted).
  seeded boolean not null default false,
  received_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter sequence bookings_id_seq owned by bookings.id;
create index bookings_property_received on bookings (property_id, received_at desc, id desc);

-- A booking's rooms ("booking items" in the legacy facade). Holds rooms against availability.booked.
create table booking_rooms (
  id bigserial primary key,
  booking_id bigint not null references bookings(id),
  room_type_id bigint not null references room_types(id),
  rate_plan_id bigint not null references rate_plans(id),
  qty int not null default 1 check (qty > 0),
  checkin_date date not null,
  checkout_date date not null,
  adults int not null default 1,
  children int not null default 0,
  price numeric(14, 2) not null default 0,
  -- Legacy PMS sync annotations (ackBooking / postRoomAssignment).
  pms_status text,
  pms_key_id bigint references legacy_api_keys(id),
  ext_reservation_id text,
  room_number text,
  self_checkin_code text
);
create index booking_rooms_booking on booking_rooms (booking_id);

-- The feed: append-only, ascending id, a full frozen snapshot per revision.
create table booking_revisions (
  id bigserial primary key,
  booking_id bigint not null references bookings(id),
  property_id bigint not null references properties(id),
  revision_type text not null check (revision_type in ('created', 'modified', 'cancelled', 'no_show', 'confirmed')),
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index booking_revisions_property on booking_revisions (property_id, id);
create index booking_revisions_booking on booking_revisions (booking_id, id);

-- Acknowledgements per consumer (an api_clients row); other consumers are unaffected.
create table booking_revision_acks (
  consumer_id bigint not null references api_clients(id),
  revision_id bigint not null references booking_revisions(id),
  acked_at timestamptz not null default now(),
  primary key (consumer_id, revision_id)
);
