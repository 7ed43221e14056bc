-- The calendar's keys without deduplication (issue 24, bench:volume "availability read, a year").
--
-- A push rewrites a property's day-rows; an update that does not fit on its page moves the row and adds a
-- second entry of the same key to the partition's primary key. Such entries are normally removed one by one
-- as soon as a scan finds the old version dead (LP_DEAD marks, then removed when the leaf fills). With
-- deduplication on, a leaf about to split merges the equal keys into one posting list instead, and a posting
-- list is marked dead only when every version in it is dead, which never happens while one is live: the dead
-- versions stay until VACUUM, and every read of the property visits their heap pages too. How often a leaf
-- merges rather than deletes depends on where the moved rows landed among the partition's other rows, so it
-- grew with the partition: after 40 pushes of the bench property, its year read 5920 buffers beside 10000
-- properties against 1969 beside 20, and 154-177 per month with deduplication off against 489-1194 with it
-- on, in the same database. These keys are unique: deduplication only ever merged versions of one row.
--
-- ALTER INDEX .. SET cannot be applied to a partitioned index, so every partition's key is set here, and
-- qc_calendar_month sets the key of each month it creates from now on.

do $$
declare
  idx regclass;
begin
  for idx in
    select i.indexrelid::regclass from pg_inherits h
    join pg_class parent on parent.oid = h.inhparent
    join pg_index i on i.indrelid = h.inhrelid
    where parent.relname in ('availability', 'rates', 'restrictions') and parent.relkind = 'p'
  loop
    execute format('alter index %s set (deduplicate_items = off)', idx);
  end loop;
end $$;

-- As in 0820, and the new month's key index without deduplication (ATTACH creates it from the parent's).
create or replace function qc_calendar_month(parent text, month date) returns boolean language plpgsql as $$
declare
  first date := date_trunc('month', month)::date;
  next date := (date_trunc('month', month) + interval '1 month')::date;
  base text := regexp_replace(parent, '_next$', '');
  part text := base || to_char(first, '"_y"YYYY"m"MM');
  idx regclass;
begin
  if to_regclass(part) is not null then return false; end if;
  execute format('create table %I (like %I including defaults) with (fillfactor = 70)', part, parent);
  execute format('with moved as (delete from %I where date >= %L and date < %L returning *) insert into %I select * from moved',
    base || '_default', first, next, part);
  execute format('alter table %I attach partition %I for values from (%L) to (%L)', parent, part, first, next);
  for idx in select indexrelid::regclass from pg_index where indrelid = to_regclass(part) loop
    execute format('alter index %s set (deduplicate_items = off)', idx);
  end loop;
  return true;
end $$;
