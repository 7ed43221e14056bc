-- The fan-out budget charged by one upsert inside the claim statement (server/webhooks/claim-deliveries.ts) instead
-- of webhook_fanout_charge (migration 1100): the function's three statements a client were 0.3 ms of a 0.67 ms
-- claim of 8 deliveries (EXPLAIN ANALYZE, a warm session), and claims sit on the path of every delivery. An upsert
-- returns the row after its update only, so the count it replaced is kept beside it: the grant is the difference.
-- A constant default adds the column without rewriting the table (and PGlite runs it as PostgreSQL does).
-- webhook_fanout_charge stays for processes of the previous release during a rolling deploy.
alter table webhook_fanout_usage add column used_before int not null default 0;
