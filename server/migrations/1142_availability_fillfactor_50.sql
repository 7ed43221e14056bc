-- Availability pages keep half their room free (issue 24, bench:volume "availability read, a year").
--
-- A push rewrites every day-row of the property it names in one statement, and a version written by the
-- statement cannot be pruned before it commits: a page keeps the push's rows in place (HOT) only if it has room
-- for a new version of every one of them at once. At fillfactor 70 a page has room for under half, so the first
-- pushes moved the rest to other pages, new key entries and all, and every later read visited those pages too.
-- Measured on a month of 300 properties of 50 rooms, one property's 1550 day-rows rewritten 30 times: at 70, 1757
-- of the 46500 updates moved their row and the rows spread from 20 pages to 42; at 50, 50 moved and they lay on
-- 29 (bench:volume, the small database after 200 pushes: 99-104 pages a month at 70, 28 at 50). An availability
-- row is narrow (no prices), so the table is about 1.4 times larger at rest; rates and restrictions keep 70
-- (rates rows are wide and far more numerous, and their reads met their target).
--
-- SET (fillfactor) takes SHARE UPDATE EXCLUSIVE (pushes and reads go on) and applies to pages filled from now
-- on; existing pages reach it as their rows are rewritten, or at once with pg_repack.

do $$
declare
  part regclass;
begin
  for part in
    select h.inhrelid::regclass from pg_inherits h join pg_class parent on parent.oid = h.inhparent
    where parent.relname = 'availability' and parent.relkind = 'p'
  loop
    execute format('alter table %s set (fillfactor = 50)', part);
  end loop;
end $$;

-- As in 1141, a new month taking the fillfactor of its table's default partition (set above for availability,
-- 70 for the others since 0820): the setting stays a property of the table, not a list of tables in here.
create or replace function qc_calendar_month(parent text, month date) returns boolean language plpgsql as $$
declare
  first date := date_trunc('month', month)::date;
  next date := (date_trunc('month', month) + interval '1 month')::date;
  base text := regexp_replace(parent, '_next$', '');
  part text := base || to_char(first, '"_y"YYYY"m"MM');
  fill text := coalesce((select o.option_value from pg_class c, pg_options_to_table(c.reloptions) o
    where c.oid = to_regclass(base || '_default') and o.option_name = 'fillfactor'), '100');
  idx regclass;
begin
  if to_regclass(part) is not null then return false; end if;
  execute format('create table %I (like %I including defaults) with (fillfactor = %s)', part, parent, fill);
  execute format('with moved as (delete from %I where date >= %L and date < %L returning *) insert into %I select * from moved',
    base || '_default', first, next, part);
  execute format('alter table %I attach partition %I for values from (%L) to (%L)', parent, part, first, next);
  for idx in select indexrelid::regclass from pg_index where indrelid = to_regclass(part) loop
    execute format('alter index %s set (deduplicate_items = off)', idx);
  end loop;
  return true;
end $$;
