-- The calendar: one row per room type (or pair) and day. Written only through the property's actor.

-- offered = free rooms the partner sent + booked; free = offered - booked.
create table availability (
  room_type_id bigint not null references room_types(id),
  date date not null,
  offered int not null default 0,
  booked int not null default 0,
  -- Legacy opened/closed flag (updateAvailability `opened` / `closed`).
  opened boolean not null default true,
  set_at timestamptz not null default now(),
  primary key (room_type_id, date)
);

-- Stored nightly values of manual codes only: {"A1": 100, "A2": 150}. Derived codes and child plans are
-- computed at read time. A push merges codes into the day's map (codes not sent keep their value).
create table rates (
  rate_plan_id bigint not null references rate_plans(id),
  room_type_id bigint not null references room_types(id),
  date date not null,
  prices jsonb not null,
  set_at timestamptz not null default now(),
  primary key (rate_plan_id, room_type_id, date)
);

-- Restrictions; a null column means "not set". Accepted on any plan, parent or child.
create table restrictions (
  rate_plan_id bigint not null references rate_plans(id),
  room_type_id bigint not null references room_types(id),
  date date not null,
  min_los int,
  max_los int,
  stop_sell boolean,
  closed_to_arrival boolean,
  closed_to_departure boolean,
  set_at timestamptz not null default now(),
  primary key (rate_plan_id, room_type_id, date)
);
