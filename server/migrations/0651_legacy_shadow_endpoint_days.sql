-- The shadow-difference counts of 0650 per endpoint as well (method and path, as the harness names endpoints),
-- so a report over the daily scores can say where the differences are.
create table legacy_shadow_endpoint_days (
  key_id bigint not null references legacy_api_keys(id),
  day date not null,
  method text not null,
  path text not null,
  compared int not null default 0,
  different int not null default 0,
  primary key (key_id, day, method, path)
);
