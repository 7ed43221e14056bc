-- Shadowed exchanges whose comparison itself failed (the property's actor lock not taken, a database error while
-- the port computed its side): lost, like those `overflowed`, so the day says how many instead of only the log.
-- Not counted as different: a database blip must not break a zero streak. Days before this migration show 0.
alter table legacy_shadow_days add column failed int not null default 0;
