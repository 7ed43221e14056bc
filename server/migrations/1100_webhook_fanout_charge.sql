-- Charges the webhook-fanout budget for a batch of first attempts (server/webhooks/claim-deliveries.ts): every
-- element of `clients` is one first attempt of that client. Answers per client how many of them the day's budget
-- grants (at most what is left; the claim grants that client's first ones and defers the rest to midnight). A
-- function because one statement cannot read a counter's value from before its own upsert (RETURNING OLD is
-- PostgreSQL 18) and a batch needs it: 3 asked with 2 left grants 2, which no single upsert's result tells apart
-- from 2 asked. Each statement here sees what other transactions committed before it (a fresh snapshot), and the
-- row lock serialises the processes charging one client; clients are charged in id order, so two batches never
-- wait on each other crosswise.
create function webhook_fanout_charge(clients bigint[], charge_day date, per_day int)
returns table (client bigint, granted int) language plpgsql as $$
declare
  asked record;
  used_before int;
begin
  for asked in
    select x.c, count(*)::int as n from unnest(clients) as x(c) group by x.c order by x.c
  loop
    insert into webhook_fanout_usage (client_id, day, used) values (asked.c, charge_day, 0)
      on conflict on constraint webhook_fanout_usage_pkey do nothing;
    select u.used into used_before from webhook_fanout_usage u
      where u.client_id = asked.c and u.day = charge_day for update;
    client := asked.c;
    granted := greatest(0, least(asked.n, per_day - used_before));
    if granted > 0 then
      update webhook_fanout_usage u set used = used_before + granted
        where u.client_id = asked.c and u.day = charge_day;
    end if;
    return next;
  end loop;
end
$$;
