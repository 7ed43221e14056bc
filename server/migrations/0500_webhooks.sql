-- Webhook subscriptions, their deliveries (one per event and subscription, retried on the ladder), each
-- attempt's outcome, and the per-customer daily webhook-fanout counter.

create table subscriptions (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  customer_id bigint not null references customers(id),
  -- The credential that created it: the webhook-fanout budget is counted per client (spec 8.1).
  created_by bigint not null references api_clients(id),
  url text not null,
  event_types text[] not null,
  -- Explicit property filter (internal ids). all_properties follows the customer's active properties live
  -- (a subscription created without property_ids by an account-scoped credential).
  property_ids bigint[] not null default '{}',
  all_properties boolean not null default false,
  -- Kept in clear: an HMAC needs the secret itself. secret_version counts rotations; the previous secret
  -- keeps signing retries of deliveries made before the rotation until previous_secret_expires_at.
  secret text not null,
  secret_version int not null default 1,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  secret_rotated_at timestamptz,
  status text not null default 'active' check (status in ('active', 'disabled')),
  disabled_at timestamptz,
  disabled_reason text,
  -- Start of the current run of failed attempts with no success; any success clears it.
  failing_since timestamptz,
  last_success_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  deleted_at timestamptz
);
create index subscriptions_customer on subscriptions (customer_id) where deleted_at is null;

create table deliveries (
  id bigserial primary key,
  -- X-Qc-Delivery: the same on every attempt; a redelivery is a new delivery with a new id.
  external_id uuid not null unique default gen_random_uuid(),
  subscription_id bigint not null references subscriptions(id),
  customer_id bigint not null references customers(id),
  outbox_event_id bigint not null references outbox_events(id),
  event_type text not null,
  -- The exact bytes posted on every attempt (the signature covers them).
  body text not null,
  secret_version int not null,
  status text not null default 'pending' check (status in ('pending', 'delivering', 'delivered', 'failed', 'dead')),
  attempts int not null default 0,
  next_attempt_at timestamptz,
  -- While delivering: when another worker may take the delivery over (its worker died mid-attempt).
  lease_until timestamptz,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_response_status int,
  last_error text,
  delivered_at timestamptz,
  redelivery_of bigint references deliveries(id),
  created_at timestamptz not null
);
create unique index deliveries_once on deliveries (subscription_id, outbox_event_id) where redelivery_of is null;
create index deliveries_due on deliveries (next_attempt_at) where status in ('pending', 'failed');
create index deliveries_leased on deliveries (lease_until) where status = 'delivering';
create index deliveries_subscription on deliveries (subscription_id, created_at desc, id desc);
create index deliveries_outstanding on deliveries (subscription_id) where status in ('pending', 'delivering', 'failed');

create table delivery_attempts (
  id bigserial primary key,
  delivery_id bigint not null references deliveries(id),
  subscription_id bigint not null references subscriptions(id),
  attempt int not null,
  started_at timestamptz not null,
  duration_ms int not null,
  response_status int,
  error text,
  success boolean not null
);
create index delivery_attempts_subscription on delivery_attempts (subscription_id, started_at desc);

-- Deliveries started per client and UTC day: shared by every process, so the budget holds across workers.
create table webhook_fanout_usage (
  client_id bigint not null references api_clients(id),
  day date not null,
  used int not null,
  primary key (client_id, day)
);
