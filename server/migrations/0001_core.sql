-- Tenancy, credentials, signing keys, the event outbox and logged incidents.

create table customers (
  id bigserial primary key,
  name text not null,
  -- Only a partner that owns properties may create them through POST /properties.
  owns_properties boolean not null default true,
  created_at timestamptz not null default now()
);

-- A customer's group of properties; a paused group drops out of account-scoped allow-lists at once.
create table property_groups (
  id bigserial primary key,
  customer_id bigint not null references customers(id),
  name text not null,
  paused boolean not null default false,
  created_at timestamptz not null default now()
);

create table properties (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  customer_id bigint not null references customers(id),
  group_id bigint references property_groups(id),
  name text not null,
  name_tr jsonb not null default '{}',
  currency char(3) not null,
  timezone text not null,
  mode text not null default 'shadow' check (mode in ('shadow', 'live')),
  partner_code text,
  partner_name text,
  type_id int,
  status text not null default 'active' check (status in ('active', 'disabled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- partner_code is unique within the customer's group of properties.
create unique index properties_partner_code on properties (customer_id, partner_code) where partner_code is not null;
create index properties_customer on properties (customer_id);

-- OAuth clients and personal API tokens are both "clients": one row, one principal shape.
create table api_clients (
  id bigserial primary key,
  client_id text not null unique,
  kind text not null check (kind in ('oauth', 'personal')),
  customer_id bigint not null references customers(id),
  name text not null default '',
  -- SHA-256 hex of the client secret (oauth) or of the whole token (personal); secrets are 256-bit random.
  secret_hash text not null,
  scopes text[] not null,
  account_scoped boolean not null default false,
  property_ids bigint[] not null default '{}',
  endpoint_scopes text[] not null default '{}',
  tier text not null default 'standard',
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index api_clients_personal_hash on api_clients (secret_hash) where kind = 'personal';

create table signing_keys (
  kid text primary key,
  alg text not null,
  public_jwk jsonb not null,
  private_jwk jsonb not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

-- Legacy PMS v1 keys: one per (PMS, property); stored as SHA-256 hex like every other secret.
create table legacy_api_keys (
  id bigserial primary key,
  key_hash text not null unique,
  customer_id bigint not null references customers(id),
  property_id bigint not null references properties(id),
  pms_name text not null default 'pms',
  active boolean not null default true,
  created_at timestamptz not null default now()
);

-- Domain events recorded in the same transaction as the change they describe (transactional outbox).
create table outbox_events (
  id bigserial primary key,
  event_id uuid not null unique default gen_random_uuid(),
  type text not null,
  customer_id bigint not null references customers(id),
  property_id bigint references properties(id),
  data jsonb not null,
  created_at timestamptz not null default now(),
  relayed_at timestamptz
);
create index outbox_events_unrelayed on outbox_events (id) where relayed_at is null;

-- Every error response's X-Qc-Support-Ticket finds one of these rows.
create table incidents (
  ticket text primary key,
  request_id text not null,
  method text not null,
  path text not null,
  status int not null,
  error_key text not null,
  client_id text,
  detail jsonb,
  created_at timestamptz not null default now()
);
