-- Configuration surfaces I (spec 2.9, 4.7): payment and cancellation policies become editable, extra
-- services, promotions and special offers get their tables. Policies, age groups and booking buttons
-- already had tables (0002, 0600); the placeholders seeded by rate plan creation are ordinary rows here.

alter table payment_policies
  add column name_tr jsonb not null default '{}',
  -- Share of the stay's total due under pay_type (a deposit below 100).
  add column percent numeric(5, 2) not null default 100 check (percent > 0 and percent <= 100),
  add column updated_at timestamptz not null default now(),
  add constraint payment_policies_pay_type
    check (pay_type in ('on_res', 'af_res', 'be_arr', 'on_arr', 'on_dep', 'be_dat'));
create index payment_policies_property on payment_policies (property_id);

alter table cancellation_policies add column updated_at timestamptz not null default now();
create index cancellation_policies_property on cancellation_policies (property_id);
create index rate_plans_payment_policy on rate_plans (payment_policy_id);
create index rate_plans_cancellation_policy on rate_plans (cancellation_policy_id);

create table extra_services (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null default '',
  name_tr jsonb not null default '{}',
  is_daily boolean not null default false,
  price numeric(12, 2) not null check (price >= 0),
  price_type int not null check (price_type between 1 and 5),
  do_not_apply_promotions boolean not null default false,
  active_week_days text[] not null default '{mon,tue,wed,thu,fri,sat,sun}',
  -- client_select_dates_settings: type '0' every day, '1' one day, '2' a range of min_days..max_days.
  select_dates_type text not null default '0' check (select_dates_type in ('0', '1', '2')),
  select_min_days int,
  select_max_days int,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index extra_services_property on extra_services (property_id);

create table promotions (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  property_id bigint not null references properties(id),
  name text not null,
  name_tr jsonb not null default '{}',
  type text not null check (type in ('basic', 'early_booker', 'last_minute', 'mobile')),
  is_active boolean not null default true,
  discount_type text not null check (discount_type in ('percent', 'amount_per_night')),
  discount_value numeric(12, 2) not null check (discount_value > 0),
  stay_from date,
  stay_to date,
  book_from date,
  book_to date,
  resv_min int,
  resv_max int,
  resv_from_time text not null default '00:00',
  resv_to_time text not null default '24:00',
  days_before_arrival_min int,
  days_before_arrival_max int,
  -- Internal rate plan ids; empty means every rate plan of the property.
  rate_plan_ids bigint[] not null default '{}',
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index promotions_property on promotions (property_id);

create table special_offers (
  id bigserial primary key,
  external_id uuid not null unique default gen_random_uuid(),
  booking_button_id bigint not null references booking_buttons(id),
  property_id bigint not null references properties(id),
  name text not null,
  name_tr jsonb not null default '{}',
  is_active boolean not null default true,
  active_from_date date not null,
  active_to_date date not null,
  rate_plan_ids bigint[] not null,
  min_nights int,
  max_nights int,
  discount_percent numeric(5, 2) not null check (discount_percent > 0 and discount_percent <= 100),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index special_offers_button on special_offers (booking_button_id);
