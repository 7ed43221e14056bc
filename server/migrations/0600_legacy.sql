-- The legacy PMS v1 facade (legacy/): booking modules, the PMS's posted property data and room links,
-- legacy booking revisions with their acks, and the customer events it logs.

-- Booking buttons (spec 2.9), the booking modules of the legacy facade: `url_key` is the `bm_code` of
-- getBookingOffers and is unique across the platform (it is the public booking-engine address).
create table booking_buttons (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  url_key text not null unique,
  url_link text not null default '',
  is_active boolean not null default true,
  currency_code char(3),
  lng_locale text not null default 'en-GB',
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index booking_buttons_property on booking_buttons (property_id);

-- postExternalPropertyData, one row per PMS (legacy key): the PMS's own property id and name and its
-- mapping_data with the five arrays, entries stored verbatim.
create table legacy_pms_property_data (
  key_id bigint primary key references legacy_api_keys(id),
  property_id bigint not null references properties(id),
  ext_property_id text not null,
  ext_property_name text not null,
  mapping_data jsonb not null,
  updated_at timestamptz not null default now()
);

-- The hotelier's link of a PMS room type (an id the PMS declared in mapping_data.rooms_types) to one of
-- the property's room types: what `ext_room_id` resolves through.
create table legacy_room_links (
  key_id bigint not null references legacy_api_keys(id),
  ext_room_id text not null,
  room_type_id bigint not null references room_types(id),
  created_at timestamptz not null default now(),
  primary key (key_id, ext_room_id)
);

-- Legacy booking revisions: the frozen bytes sent by getBookings. A new row appears when the booking's
-- legacy content changes. `seq` orders a booking's rows; `revision_number` is what the PMS sees (equal to
-- seq from booking id 161300 on, always 1 below). Acks are per revision, never cascading to earlier ones.
create table legacy_booking_revisions (
  id bigserial primary key,
  booking_id bigint not null references bookings(id),
  seq int not null,
  revision_number int not null,
  revision_id text not null,
  content_md5 text not null,
  content text not null,
  created_at timestamptz not null default now(),
  acked_at timestamptz,
  acked_key_id bigint references legacy_api_keys(id),
  unique (booking_id, seq)
);
create index legacy_booking_revisions_lookup on legacy_booking_revisions (booking_id, revision_id);

-- Customer events the facade logs (it emits no webhooks): room assignments posted by a PMS. The room
-- number column has the legacy width; a longer one is a failed write.
create table legacy_customer_events (
  id bigserial primary key,
  type text not null,
  customer_id bigint not null references customers(id),
  property_id bigint not null references properties(id),
  key_id bigint not null references legacy_api_keys(id),
  booking_id bigint not null references bookings(id),
  -- No foreign key: a booking modification may delete the item, the logged event stays.
  booking_item_id bigint not null,
  room_number text not null check (char_length(room_number) <= 32),
  self_checkin_code text,
  created_at timestamptz not null default now()
);
create index legacy_customer_events_booking on legacy_customer_events (booking_id);

create index bookings_property_checkin on bookings (property_id, checkin_date);

-- Ids for the demo's old-generation bookings (below 161300, MD5 revision ids), so every demo gets its own.
create sequence legacy_demo_old_booking_ids start with 100000 maxvalue 161299;
