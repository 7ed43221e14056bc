-- Wakes the webhook relay when outbox events commit (NOTIFY is delivered at commit), so a delivery does
-- not wait for the next poll. One notification per statement; PostgreSQL folds repeats within a transaction.
create function outbox_events_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('qc_outbox', '');
  return null;
end
$$;

create trigger outbox_events_notify after insert on outbox_events
  for each statement execute function outbox_events_notify();
