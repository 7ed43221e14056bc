-- Group-level catalogue replacement jobs (POST /catalogue-sync); the outcome is read with GET /catalogue-sync/{job}.
create table catalogue_sync_jobs (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  customer_id bigint not null references customers(id),
  client_id bigint not null references api_clients(id),
  status text not null check (status in ('queued', 'running', 'completed', 'failed')),
  request jsonb not null,
  outcome jsonb,
  created_at timestamptz not null,
  completed_at timestamptz
);
create index catalogue_sync_jobs_customer on catalogue_sync_jobs (customer_id, created_at);
