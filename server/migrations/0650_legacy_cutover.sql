-- Legacy cutover per credential (issue 13, spec 9.4): each legacy api key's mode (shadow: the legacy service
-- answers and the port is compared with it; live: the port answers), the daily shadow-difference score, sample
-- differences, which legacy endpoints each key uses, and the facade's sunset date.

-- Existing keys were answered by the port before this setting existed: they stay live.
alter table legacy_api_keys
  add column cutover_mode text not null default 'live' check (cutover_mode in ('shadow', 'live')),
  add column upstream_url text,
  add column cutover_changed_at timestamptz;

-- One row per key and UTC day with shadow traffic. `compared`: exchanges judged; `different`: those that
-- differ beyond noise and ignore rules; `unanswered`: the upstream gave no answer (nothing to compare);
-- `overflowed`: comparisons dropped because the queue was full. `noise_fields`: the fields forgiven that day.
create table legacy_shadow_days (
  key_id bigint not null references legacy_api_keys(id),
  day date not null,
  compared int not null default 0,
  different int not null default 0,
  unanswered int not null default 0,
  overflowed int not null default 0,
  noise_fields text[] not null default '{}',
  primary key (key_id, day)
);

-- Up to N differing exchanges per key and day, both bodies with guest data masked, the api_key left out.
-- Rows older than 90 days are deleted by the writer.
create table legacy_shadow_samples (
  id bigserial primary key,
  key_id bigint not null references legacy_api_keys(id),
  day date not null,
  method text not null,
  path text not null,
  query text not null,
  request_body text,
  upstream_status int not null,
  port_status int not null,
  upstream_body text not null,
  port_body text not null,
  fields jsonb not null,
  created_at timestamptz not null
);
create index legacy_shadow_samples_key_day on legacy_shadow_samples (key_id, day);

-- Which legacy endpoints (`class/method` as in the method table) each key called on which UTC day, whatever
-- its mode: the credentials that hold back a sunset of those endpoints.
create table legacy_endpoint_usage (
  key_id bigint not null references legacy_api_keys(id),
  endpoint text not null,
  day date not null,
  primary key (endpoint, key_id, day)
);

-- The facade's shutdown date (one row): `endpoints` null means every method.
create table legacy_sunset (
  id int primary key check (id = 1),
  sunset_date date not null,
  endpoints text[],
  set_at timestamptz not null
);
