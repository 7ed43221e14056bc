-- The calendar, partitioned and distribution-ready (issue 24; docs/scaling.md).
--
-- Every calendar table now carries property_id leading its key, and is range-partitioned by stay month:
--  - retention of past days is a month partition dropped whole (server/retention/calendar-months.ts),
--    never a DELETE of millions of rows;
--  - within a month, a property's rows are adjacent in the key (property_id, ...), so a year's read is one
--    index range per month partition, pruned to the months asked for;
--  - a distributed PostgreSQL (Citus) can distribute all three by property_id, co-located with room_types
--    and rate_plans (whose (property_id, id) keys the composite foreign keys below reference).
-- Rows outside every month partition (dates far in the past or future: fixtures, odd clocks) land in the
-- `_default` partition; creating a month moves its rows out of it first (qc_calendar_month).
--
-- Online safety: on a small calendar (the embedded default, tests, a fresh install) this migration converts
-- in place in a moment. On a populated one (more than 2 M day-rows) it refuses, and the operator first runs
-- `npm run calendar:backfill` while the previous release serves: that creates the partitioned tables as
-- `*_next`, mirrors every write of the old tables into them (statement triggers) and copies the old rows in
-- small batches, each its own short transaction. This migration then only swaps names in one short
-- transaction (docs/operations.md, "Partitioned calendar").

-- room_types and rate_plans: (property_id, id) keys, so the calendar's foreign keys carry property_id too.
-- (Written to run twice: `npm run calendar:backfill` runs everything of this file above "The conversion".)
do $$
begin
  if to_regclass('room_types_property_id_id_key') is null then
    alter table room_types add constraint room_types_property_id_id_key unique (property_id, id);
  end if;
  if to_regclass('rate_plans_property_id_id_key') is null then
    alter table rate_plans add constraint rate_plans_property_id_id_key unique (property_id, id);
  end if;
end $$;

-- The three partitioned tables under the given names (suffix '' or '_next'), with no month partitions yet
-- but the default one.
create or replace function qc_calendar_tables(suffix text) returns void language plpgsql as $$
begin
  execute format($t$
    create table availability%1$s (
      property_id bigint not null,
      room_type_id bigint not null,
      date date not null,
      offered int not null default 0,
      booked int not null default 0,
      opened boolean not null default true,
      set_at timestamptz not null default now(),
      primary key (property_id, room_type_id, date),
      foreign key (property_id, room_type_id) references room_types (property_id, id)
    ) partition by range (date)$t$, suffix);
  execute format($t$
    create table rates%1$s (
      property_id bigint not null,
      rate_plan_id bigint not null,
      room_type_id bigint not null,
      date date not null,
      prices jsonb not null,
      set_at timestamptz not null default now(),
      primary key (property_id, rate_plan_id, room_type_id, date),
      foreign key (property_id, rate_plan_id) references rate_plans (property_id, id),
      foreign key (property_id, room_type_id) references room_types (property_id, id)
    ) partition by range (date)$t$, suffix);
  execute format($t$
    create table restrictions%1$s (
      property_id bigint not null,
      rate_plan_id bigint not null,
      room_type_id bigint not null,
      date date not null,
      min_los int,
      max_los int,
      stop_sell boolean,
      closed_to_arrival boolean,
      closed_to_departure boolean,
      set_at timestamptz not null default now(),
      primary key (property_id, rate_plan_id, room_type_id, date),
      foreign key (property_id, rate_plan_id) references rate_plans (property_id, id),
      foreign key (property_id, room_type_id) references room_types (property_id, id)
    ) partition by range (date)$t$, suffix);
  -- Calendar rows are rewritten all day: room on each page keeps updates HOT (0300_calendar_fillfactor).
  -- Partitions are named after the final table (availability_default, availability_y2026m11), so the swap
  -- from `_next` renames the three parents only.
  execute format('create table availability_default partition of availability%1$s default with (fillfactor = 70)', suffix);
  execute format('create table rates_default partition of rates%1$s default with (fillfactor = 70)', suffix);
  execute format('create table restrictions_default partition of restrictions%1$s default with (fillfactor = 70)', suffix);
end $$;

-- Creates the month partition of `parent` holding `month` (any day of it) unless it exists: an empty table
-- gets the default partition's rows of that month, then is attached (ATTACH takes SHARE UPDATE EXCLUSIVE
-- on the parent, so pushes and reads go on; only the default partition is locked while it is checked).
-- Answers whether it created one.
create or replace function qc_calendar_month(parent text, month date) returns boolean language plpgsql as $$
declare
  first date := date_trunc('month', month)::date;
  next date := (date_trunc('month', month) + interval '1 month')::date;
  base text := regexp_replace(parent, '_next$', '');
  part text := base || to_char(first, '"_y"YYYY"m"MM');
begin
  if to_regclass(part) is not null then return false; end if;
  execute format('create table %I (like %I including defaults) with (fillfactor = 70)', part, parent);
  execute format('with moved as (delete from %I where date >= %L and date < %L returning *) insert into %I select * from moved',
    base || '_default', first, next, part);
  execute format('alter table %I attach partition %I for values from (%L) to (%L)', parent, part, first, next);
  return true;
end $$;

-- The month partitions of all three tables from `first` through `last` (months of those days).
create or replace function qc_calendar_months(suffix text, first date, last date) returns int language plpgsql as $$
declare
  m date := date_trunc('month', first)::date;
  created int := 0;
begin
  while m <= last loop
    if qc_calendar_month('availability' || suffix, m) then created := created + 1; end if;
    perform qc_calendar_month('rates' || suffix, m);
    perform qc_calendar_month('restrictions' || suffix, m);
    m := (m + interval '1 month')::date;
  end loop;
  return created;
end $$;

-- The conversion: a swap when calendar:backfill prepared the tables, in place when the calendar is small.
do $$
declare
  stored real;
begin
  if (select relkind from pg_class where oid = 'availability'::regclass) = 'p' then return; end if;
  if to_regclass('availability_next') is not null then
    if (select count(*) filter (where done) from calendar_backfill) < 3 then
      raise exception 'the calendar backfill has not finished: run `npm run calendar:backfill` to completion first';
    end if;
    -- Writes wait for this transaction's lock from here on; every earlier one was mirrored by the triggers.
    lock table availability, rates, restrictions in exclusive mode;
    alter table availability rename to availability_unpartitioned;
    alter table rates rename to rates_unpartitioned;
    alter table restrictions rename to restrictions_unpartitioned;
    alter table availability_next rename to availability;
    alter table rates_next rename to rates;
    alter table restrictions_next rename to restrictions;
    drop table calendar_backfill;
    -- The old tables go in a moment (no rows are read to drop them).
    drop table availability_unpartitioned, rates_unpartitioned, restrictions_unpartitioned;
    drop function calendar_mirror_availability(), calendar_mirror_rates(), calendar_mirror_restrictions();
    return;
  end if;
  select coalesce(sum(reltuples), 0) into stored from pg_class
    where relname in ('availability', 'rates', 'restrictions') and relkind = 'r';
  if stored > 2000000 then
    raise exception 'the calendar holds % day-rows: run `npm run calendar:backfill` (online, batched) before this release migrates', stored::bigint;
  end if;
  alter table availability rename to availability_unpartitioned;
  alter table rates rename to rates_unpartitioned;
  alter table restrictions rename to restrictions_unpartitioned;
  perform qc_calendar_tables('');
  perform qc_calendar_months('', (current_date - interval '2 months')::date, (current_date + interval '25 months')::date);
  insert into availability (property_id, room_type_id, date, offered, booked, opened, set_at)
    select rt.property_id, a.room_type_id, a.date, a.offered, a.booked, a.opened, a.set_at
    from availability_unpartitioned a join room_types rt on rt.id = a.room_type_id;
  insert into rates (property_id, rate_plan_id, room_type_id, date, prices, set_at)
    select rt.property_id, r.rate_plan_id, r.room_type_id, r.date, r.prices, r.set_at
    from rates_unpartitioned r join room_types rt on rt.id = r.room_type_id;
  insert into restrictions (property_id, rate_plan_id, room_type_id, date, min_los, max_los, stop_sell,
      closed_to_arrival, closed_to_departure, set_at)
    select rt.property_id, r.rate_plan_id, r.room_type_id, r.date, r.min_los, r.max_los, r.stop_sell,
      r.closed_to_arrival, r.closed_to_departure, r.set_at
    from restrictions_unpartitioned r join room_types rt on rt.id = r.room_type_id;
  drop table availability_unpartitioned, rates_unpartitioned, restrictions_unpartitioned;
end $$;
