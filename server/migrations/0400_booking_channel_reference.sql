-- A channel's own reservation reference (OTA reservation number, partner reference): the same reference
-- arriving twice on one property and channel is the same booking, never a second one.
alter table bookings add column channel_reference text;
create unique index bookings_channel_reference on bookings (property_id, source_channel, channel_reference)
  where channel_reference is not null;

-- The bookings list's check-out filter (spec 4.5); check-in has bookings_property_checkin (0600_legacy.sql).
create index bookings_by_property_checkout on bookings (property_id, checkout_date);
