-- The Idempotency-Key of an operator booking intake (POST /ops/bookings), kept in the same transaction as the
-- booking it made: a retry after a lost COMMIT finds the booking if it was committed, and makes it if not.
-- The fingerprint is the SHA-256 of the request body; another body under a kept key is a conflict.
create table booking_intake_keys (
  key text primary key,
  fingerprint text not null,
  booking_id bigint not null references bookings(id) on delete cascade,
  created_at timestamptz not null default now()
);
