-- A subscription receives the events committed from its creation on: the outbox id of its own
-- subscription.created event. A lagging relay must not hand it events older than itself.
alter table subscriptions add column since_event_id bigint not null default 0;
