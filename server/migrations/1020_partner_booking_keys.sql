-- Partner booking creation (POST /v1/qc/bookings, /b2b/bookings) keeps its Idempotency-Key with the booking too,
-- in the booking's transaction, like the operator intake (0800): the request-level store gives a key back on a
-- 5xx, so a retry after a COMMIT whose outcome was unknown booked a second time. `origin` keeps the two key
-- spaces apart: an operator key is the header as sent; a partner key is the store's scope (a SHA-256 of the
-- client, method, path and header), so one partner's key never meets another's.
alter table booking_intake_keys add column origin text not null default 'operator';
alter table booking_intake_keys drop constraint booking_intake_keys_pkey;
alter table booking_intake_keys add primary key (origin, key);
