-- Property groups become a partner resource (scope groups.manage): an external id like every other resource's,
-- so the internal bigserial never leaves the service.
alter table property_groups add column external_id uuid not null default gen_random_uuid();
create unique index property_groups_external_id on property_groups (external_id);
