-- Incidents expire after the retention period (QC_INCIDENT_RETENTION_DAYS): the purge finds old rows by age.
create index if not exists incidents_created_at on incidents (created_at);
