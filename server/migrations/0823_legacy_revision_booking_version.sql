-- The version (xmin) of the booking row a legacy revision's content was computed from: getBookings
-- recomputes content only for bookings whose row changed since (legacy/booking/legacy-revisions.ts).
-- Null on existing rows: their bookings are computed once more, then carry it. No rewrite (no default).
alter table legacy_booking_revisions add column booking_version text;
