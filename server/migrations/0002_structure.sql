-- Property structure: room types, rate plans and their (rate plan x room type) pairs, policies, catalogue.

create table room_types (
  -- The internal integer id is what the legacy facade calls room_id.
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  name_tr jsonb not null default '{}',
  kind text not null default 'room',
  qty int not null default 1 check (qty >= 0),
  max_adults int not null default 2,
  max_children int not null default 0,
  max_infants int not null default 0,
  -- Bed capacity drives the occupancy vocabulary (spec 2.5) and the legacy room details (spec 2.10).
  regular_beds int not null default 2 check (regular_beds >= 0),
  extra_beds int not null default 0 check (extra_beds >= 0),
  extra_beds_children_only int not null default 0 check (extra_beds_children_only >= 0),
  no_beds int not null default 0 check (no_beds >= 0),
  description text not null default '',
  legacy_type int not null default 7 check (legacy_type in (4, 5, 6, 7)),
  sqm_area numeric,
  images text[] not null default '{}',
  partner_code text,
  partner_name text,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index room_types_property on room_types (property_id);
create unique index room_types_partner_code on room_types (property_id, partner_code) where partner_code is not null;

create table payment_policies (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  pay_type text not null default 'on_arr',
  num_days int,
  date date,
  is_placeholder boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);

create table cancellation_policies (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  name_tr jsonb not null default '{}',
  rules jsonb not null default '[]',
  is_placeholder boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);

create table rate_plans (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  name_tr jsonb not null default '{}',
  sell_type text not null check (sell_type in ('per_room', 'per_person', 'per_occupancy')),
  meal_plan text not null default 'none',
  -- A child (derived) plan has no prices of its own: nightly values come from the parent's calendar.
  parent_id bigint references rate_plans(id),
  -- For a child plan: {"percent": -10} (the hotelier's percentage; per check-in period overrides in "periods").
  derivation jsonb,
  payment_policy_id bigint references payment_policies(id),
  cancellation_policy_id bigint references cancellation_policies(id),
  partner_code text,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index rate_plans_property on rate_plans (property_id);
create unique index rate_plans_partner_code on rate_plans (property_id, partner_code) where partner_code is not null;

-- One row per (rate plan x room type) pair. `occupancies` holds the pair's computed vocabulary (spec 2.5):
-- [{code, kind, persons?, derived_from?, modifier?}] where kind is manual|derived|fee|cost_free|inactive.
-- `explicit_occupancies` records that the partner supplied them (create or pricing-model reset).
create table rate_plan_rooms (
  rate_plan_id bigint not null references rate_plans(id),
  room_type_id bigint not null references room_types(id),
  occupancies jsonb not null default '[]',
  explicit_occupancies boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (rate_plan_id, room_type_id)
);
create index rate_plan_rooms_room on rate_plan_rooms (room_type_id);

-- The partner's own catalogue of codes (spec 2.2); a push replaces all three arrays.
create table catalogues (
  property_id bigint primary key references properties(id),
  rooms jsonb not null default '[]',
  rates jsonb not null default '[]',
  meals jsonb not null default '[]',
  updated_at timestamptz not null default now()
);

-- Age brackets used by the child-family occupancy codes (I infant, C child, T teen).
create table age_groups (
  property_id bigint primary key references properties(id),
  is_active boolean not null default true,
  groups jsonb not null default '[{"code":"I","from_age":0,"to_age":2},{"code":"C","from_age":3,"to_age":11},{"code":"T","from_age":12,"to_age":17}]',
  updated_at timestamptz not null default now()
);
