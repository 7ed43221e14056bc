-- The answer of a create made under an Idempotency-Key, written in the create's own transaction
-- (server/core/idempotency/kept-creates.ts). The request-level store (Redis or process memory) gives a key back
-- on a 5xx and can lose a record; when the connection died during COMMIT (503 errors.qc.write_outcome_unknown)
-- the retry runs the create again, and this row, committed with what the first call made, turns that retry into
-- the first answer instead of a second resource. `scope` is the store's key (client, method, path and key,
-- hashed), `fingerprint` the SHA-256 of the body, `created_at` the service clock at the create: the 24 hours run
-- from it. Older rows go in the retention pass (QC_RETENTION_IDEMPOTENCY_HOURS).
create table idempotent_creates (
  scope text primary key,
  fingerprint text not null,
  status smallint not null,
  headers jsonb not null default '{}',
  body text not null,
  created_at timestamptz not null
);
create index idempotent_creates_created_at on idempotent_creates (created_at);
