-- Acks stay idempotent after retention removed them (server/retention/feed-acks.ts deletes a consumer's acks
-- behind its watermark QC_RETENTION_ACK_DAYS after the ack): a repeated ack of such a revision stored a fresh ack
-- and answered a new acked_at, because the first one had gone with its row.
--
-- `pruned_acked_at`: the newest acked_at among the acks retention removed for this consumer and property, a time
-- by which each of those revisions was acked; a repeated ack of one of them answers it (server/bookings/feed.ts).
-- Pairs pruned before this migration lost their ack times: for them it is the time of this migration, which
-- every removed ack also preceded. Null while nothing was removed.
alter table booking_feed_watermarks add column pruned_acked_at timestamptz;
update booking_feed_watermarks set pruned_acked_at = now() where pruned_through > 0;
