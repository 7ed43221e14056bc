-- Per property, how far legacy getBookings has looked (legacy/booking/legacy-revisions.ts): the last modern
-- revision id it saw and the bookings it answered unacked. A later call reads only bookings changed since,
-- those, and seeded bookings not sent yet (found through the partial index). New, empty: nothing to backfill.
create table legacy_booking_marks (
  property_id bigint primary key references properties(id),
  revision_through bigint not null,
  pending bigint[] not null default '{}'
);
create index if not exists bookings_seeded on bookings (property_id, checkin_date) where seeded;
