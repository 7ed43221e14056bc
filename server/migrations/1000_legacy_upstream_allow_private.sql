-- A legacy key's upstream is checked again before every forward (issue 25 N11 re-check), with the operator's
-- override as it was given when the URL was set. Keys that already have an upstream were accepted before this
-- column existed, with or without the override: they keep forwarding to private addresses (link-local, cloud
-- metadata, stays refused for every key).
alter table legacy_api_keys add column allow_private_upstream boolean not null default false;
update legacy_api_keys set allow_private_upstream = true where upstream_url is not null;
