-- The customer of each booking revision, so that an account's feed reads one range of (customer_id, id) whatever
-- the account's size and whatever other customers hold (server/bookings/feed-account.ts; docs/scaling.md, "The
-- feed"). Without it the account feed walks booking_revisions in id order past every other customer's revisions
-- (140 ms a caught-up poll of a 200-property account at 455000 revisions).
--
-- A property never changes customer, so a revision's customer is its property's, for good.
--
-- Online safety: the column is nullable without a default (no rewrite, the lock is held for an instant). No
-- foreign key: adding one reads the whole table under lock, and property_id's already ties the row to a customer.
-- On a small table (up to 100000 revisions: the embedded default, tests, a young install) the rows are filled
-- and the index built here, in a moment. On a larger one this migration only adds the column, the trigger and
-- the progress row: `npm run revisions:customer-backfill` (scripts/revision-customer-backfill.ts) then fills the
-- rows in batches while the service serves, builds the index concurrently and marks it done; until then the feed
-- reads as before (docs/operations.md, "Revisions' customer").
alter table booking_revisions add column customer_id bigint;

-- Every revision written from now on carries its customer: the service names it (bookings/revisions.ts), and this
-- trigger fills it for a writer that does not (a previous release during a rolling deploy, a hand-made insert).
-- The alter above waited for every transaction writing the table, so no revision committed after this migration
-- is left empty: the backfill only has the rows already there.
create function booking_revision_customer() returns trigger language plpgsql as $$
begin
  new.customer_id := (select p.customer_id from properties p where p.id = new.property_id);
  return new;
end $$;
create trigger booking_revisions_customer before insert on booking_revisions
  for each row when (new.customer_id is null) execute function booking_revision_customer();

-- One row: how far the backfill has filled (resumable), and whether every revision carries its customer and the
-- index is built. The feed reads `done` on each poll, in the statement it already makes (feed-account.ts).
create table booking_revision_customer_fill (
  singleton boolean primary key default true check (singleton),
  filled_through bigint not null default 0,
  done boolean not null default false
);

do $$
begin
  if (select count(*) from (select from booking_revisions limit 100001) s) <= 100000 then
    update booking_revisions r set customer_id = p.customer_id from properties p
      where p.id = r.property_id and r.customer_id is null;
    create index booking_revisions_customer on booking_revisions (customer_id, id);
    insert into booking_revision_customer_fill (filled_through, done)
      select coalesce(max(id), 0), true from booking_revisions;
  else
    insert into booking_revision_customer_fill default values;
  end if;
end $$;
